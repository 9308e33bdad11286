import { afterAll, beforeAll, expect, it } from "vitest";
import type { Simulator } from "../../src/simulator/simulator.ts";
import { call, collectionsOn, DEMO_KEYS, mintItem, startDemo } from "../harness.ts";

let sim: Simulator;
beforeAll(async () => {
  sim = await startDemo();
});
afterAll(() => sim?.close());

it("50 simultaneous mints from several API keys on one chain all succeed with distinct token ids, each once in its history", async () => {
  const collections = await collectionsOn(sim, 56);
  const keys = [DEMO_KEYS.studio, DEMO_KEYS.arcade];
  const answers = await Promise.all(
    Array.from({ length: 50 }, (_, i) =>
      mintItem(sim, {
        collection: collections[i % 2]!,
        chainId: 56,
        apiKey: keys[i % keys.length],
        item: { name: `Item ${i}`, initialSupply: i + 1 },
      }),
    ),
  );
  expect(answers.map((answer) => answer.status)).toEqual(Array(50).fill(200));
  const refs = answers.map((answer) => answer.body.itemRefs[0]);
  expect(new Set(refs).size).toBe(50);
  expect(new Set(answers.map((answer) => answer.body.txHash)).size).toBe(50);
  for (const [i, { body }] of answers.entries()) {
    const { body: history } = await call(
      sim,
      `/api/v2/item/events/${body.collectionAddress}/${body.tokenIds[0]}?perPage=100`,
    );
    const mints = history.events.filter((event: any) => event.transactionHash === body.txHash);
    expect(mints).toHaveLength(1);
    expect(mints[0].amount).toBe(String(i + 1));
  }
});

it("a lone mint is mined at once in a block of its own; simultaneous mints share blocks, each answered once its block is indexed", async () => {
  const [collection] = await collectionsOn(sim, 56);
  const chain = sim.chains.get(56)!;
  const mintedIn = async (body: any) => {
    const { body: history } = await call(
      sim,
      `/api/v2/item/events/${body.collectionAddress}/${body.tokenIds[0]}?perPage=100`,
    );
    return history.events.find((event: any) => event.transactionHash === body.txHash).blockNumber as number;
  };

  const before = await chain.publicClient.getBlockNumber();
  const lone = await mintItem(sim, { collection: collection!, chainId: 56, item: { name: "Alone", initialSupply: 1 } });
  expect(lone.status).toBe(200);
  expect(await mintedIn(lone.body)).toBe(Number(before) + 1);
  expect((await chain.publicClient.getBlock({ blockNumber: before + 1n })).transactions).toEqual([lone.body.txHash]);

  const answers = await Promise.all(
    Array.from({ length: 24 }, (_, i) =>
      mintItem(sim, { collection: collection!, chainId: 56, item: { name: `Together ${i}`, initialSupply: 1 } }),
    ),
  );
  expect(answers.map((answer) => answer.status)).toEqual(Array(24).fill(200));
  const blocks = new Set(await Promise.all(answers.map((answer) => mintedIn(answer.body))));
  expect(blocks.size).toBeLessThan(24);
  for (const number of blocks) {
    const block = await chain.publicClient.getBlock({ blockNumber: BigInt(number) });
    expect(block.transactions.length).toBeGreaterThan(0);
  }
});
