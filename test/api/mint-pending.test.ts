import { afterAll, beforeAll, expect, it } from "vitest";
import type { Address } from "viem";
import { demoWorld } from "../../src/scenario/world.ts";
import type { Simulator } from "../../src/simulator.ts";
import { call, collectionsOn, DEMO_KEYS, expectErrorBody, mintBody, postJson, startTestSimulator } from "../harness.ts";

// A mint whose block does not come (automine off, as a stalled chain) must not hang for minutes
// nor answer a failure for a transaction that later lands: 504 MINT_PENDING with its hash.

let sim: Simulator;
let collection: Address;

beforeAll(async () => {
  sim = await startTestSimulator(demoWorld(), { mintTimeoutMs: 800 });
  [collection] = (await collectionsOn(sim, 137)) as [Address];
});
afterAll(() => sim?.close());

it("a stalled chain answers 504 MINT_PENDING with the hash, and the item appears complete once mined", async () => {
  const chain = sim.chains.get(137)!;
  await chain.request("evm_setAutomine", [false]);
  try {
    const started = performance.now();
    const pending = await postJson(sim, `/api/v2/item/new?apiKey=${DEMO_KEYS.studio}`, mintBody(sim, collection, 137, { name: "Late Lantern" }));
    expect(performance.now() - started).toBeLessThan(30_000);
    expect(pending.status).toBe(504);
    expectErrorBody(pending.body, "MINT_PENDING");
    expect(pending.body.txHash).toMatch(/^0x[0-9a-f]{64}$/);

    await chain.request("evm_mine");
    const receipt = await chain.confirmed(pending.body.txHash);
    expect(receipt.status).toBe("success");
  } finally {
    await chain.request("evm_setAutomine", [true]);
  }

  const { body: listed } = await call(sim, `/api/v2/collection/${collection}`);
  const tokenId = (await sim.chains.get(137)!.publicClient.readContract({ address: collection, abi: sim.chains.get(137)!.abis.collection, functionName: "itemCount" })) as bigint;
  const history = await call(sim, `/api/v2/item/events/${collection}/${tokenId}?chainId=137`);
  expect(history.status).toBe(200);
  expect(history.body.events).toHaveLength(1);
  const metadata = await call(sim, `/metadata/137/${listed.collection.slug}/${tokenId}`);
  expect(metadata.status).toBe(200);
  expect(metadata.body.name).toBe("Late Lantern");
});
