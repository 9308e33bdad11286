import { afterAll, beforeAll, expect, it } from "vitest";
import type { Simulator } from "../../src/simulator.ts";
import { call, collectionsOn, DEMO_KEYS, mintBody, postJson, startDemo } from "../harness.ts";

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
      postJson(sim, `/api/v2/item/new?apiKey=${keys[i % keys.length]}`, mintBody(sim, collections[i % 2]!, 56, { name: `Item ${i}`, initialSupply: i + 1 })),
    ),
  );
  expect(answers.map((answer) => answer.status)).toEqual(Array(50).fill(200));
  const refs = answers.map((answer) => answer.body.itemRefs[0]);
  expect(new Set(refs).size).toBe(50);
  expect(new Set(answers.map((answer) => answer.body.txHash)).size).toBe(50);
  for (const [i, { body }] of answers.entries()) {
    const { body: history } = await call(sim, `/api/v2/item/events/${body.collectionAddress}/${body.tokenIds[0]}?perPage=100`);
    const mints = history.events.filter((event: any) => event.transactionHash === body.txHash);
    expect(mints).toHaveLength(1);
    expect(mints[0].amount).toBe(String(i + 1));
  }
});
