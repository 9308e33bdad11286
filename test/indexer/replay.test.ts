import { afterAll, beforeAll, expect, it } from "vitest";
import { indexedEventsAbi } from "../../src/indexer/decode.ts";
import { ChainIndexer } from "../../src/indexer/indexer.ts";
import type { ChainModels } from "../../src/indexer/models.ts";
import type { Simulator } from "../../src/simulator.ts";
import { collectionsOn, mintBody, postJson, startDemo, DEMO_ACCOUNTS } from "../api/harness.ts";

let sim: Simulator;
beforeAll(async () => {
  sim = await startDemo();
});
afterAll(() => sim?.close());

function snapshot(models: ChainModels) {
  const { version: _version, ...rest } = models;
  return rest;
}

it("replaying a chain's logs into fresh models gives the same models as following it live", async () => {
  const [collection] = await collectionsOn(sim, 56);
  for (const isStackable of [true, false]) {
    const minted = await postJson(sim, `/api/v2/item/new?apiKey=${DEMO_ACCOUNTS.arcade.apiKey}`, mintBody(collection!, 56, { isStackable, initialSupply: 3 }));
    expect(minted.status).toBe(200);
  }
  const live = sim.chains.get(56)!;
  await live.indexer.sync();
  const replayed = new ChainIndexer(live.chain.publicClient, indexedEventsAbi(sim.abis), live.indexer.models.facts);
  await replayed.sync();

  expect(replayed.models.activity.size).toBeGreaterThan(5);
  expect(replayed.models.sales.size).toBeGreaterThan(0);
  expect(snapshot(replayed.models)).toEqual(snapshot(live.indexer.models));
});
