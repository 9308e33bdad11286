import { afterAll, beforeAll, expect, it } from "vitest";
import type { Simulator } from "../../src/simulator/simulator.ts";
import { contractMismatches } from "../chain-oracle.ts";
import { DEMO_KEYS, mintItem, postJson, startDemo } from "../harness.ts";

// The oracle the property tests lean on: it names what the read models lack, and it keeps no collection a revert took
// away, even when the chain has grown back past the block it last read to.

let sim: Simulator;
beforeAll(async () => {
  sim = await startDemo();
});
afterAll(() => sim?.close());

const chain = () => sim.chains.get(56)!;
const mismatches = async () => {
  const { publicClient: client, abis } = chain();
  return contractMismatches({ client, abis, models: await chain().read() });
};
const createCollection = async (name: string): Promise<string> => {
  const created = await postJson(sim, "/_sim/collections", { chainId: 56, name, owner: DEMO_KEYS.studio });
  expect(created.status, JSON.stringify(created.body)).toBe(200);
  return created.body.address;
};

let known: string;

it("names a collection the read models lack", async () => {
  const address = (known = await createCollection("Known On Chain"));
  expect(await mismatches()).toEqual([]);
  const models = await chain().read();
  const collections = new Map([...models.collections].filter(([known]) => known !== address));
  const { publicClient: client, abis } = chain();
  expect(await contractMismatches({ client, abis, models: { ...models, collections } })).toContainEqual(
    expect.stringMatching(/^the collections: /),
  );
});

it("forgets a collection a revert took away, once the chain has grown back past the block it read to", async () => {
  const { body: snapshot } = await postJson(sim, "/_sim/snapshots", {});
  await createCollection("Reverted");
  expect(await mismatches()).toEqual([]);
  expect((await postJson(sim, `/_sim/snapshots/${snapshot.id}/revert`, {})).status).toBe(200);
  // Two mints into the collection made before: the chain is past that block again, with no collection made there.
  for (const name of ["After The Revert", "And One More"])
    expect((await mintItem(sim, { collection: known, chainId: 56, item: { name } })).status).toBe(200);
  expect(await mismatches()).toEqual([]);
});
