import { afterAll, beforeAll, expect, it } from "vitest";
import { indexedEventsAbi, chainLogSource } from "../../src/indexer/log-source.ts";
import { ChainIndexer } from "../../src/indexer/indexer.ts";
import type { ReadModels } from "../../src/indexer/models.ts";
import type { Simulator } from "../../src/simulator/simulator.ts";
import { collectionViews } from "../../src/views/collections.ts";
import { itemEventsPage } from "../../src/views/item-event.ts";
import { itemMetadata } from "../../src/views/item-metadata.ts";
import { collectionsOn, DEMO_KEYS, mintItem, startDemo } from "../harness.ts";

// A differential oracle on a real chain: after live writes, an index built afresh from
// genesis out of the same chain's logs must hold the same read models and answer the
// same API objects (metadata included: it is on chain) as the indexer that followed the chain.

let sim: Simulator;
beforeAll(async () => {
  sim = await startDemo();
});
afterAll(() => sim?.close());

function readModels(models: ReadModels) {
  const { version: _version, ...rest } = models;
  return rest;
}

/** Every API object the views make from one chain's models. */
function apiObjects(models: ReadModels) {
  const views = collectionViews(models);
  const items = [...models.items.keys()].map((key) => {
    const [collection, tokenId] = key.split("-") as [`0x${string}`, string];
    return {
      events: itemEventsPage(models, collection, BigInt(tokenId), { page: 1, perPage: 1_000 }),
      metadata: itemMetadata(models, collection, BigInt(tokenId)),
    };
  });
  return { collections: [...views.values()], items };
}

it("an index built afresh from the chain's logs equals the one that followed it live", async () => {
  for (const chainId of [56, 137]) {
    const [collection] = await collectionsOn(sim, chainId);
    for (const isStackable of [true, false]) {
      const item = { isStackable, initialSupply: 3, ...(isStackable ? { maximumSupply: 7, royaltyFee: 40 } : {}) };
      const minted = await mintItem(sim, { collection: collection!, chainId, apiKey: DEMO_KEYS.arcade, item });
      expect(minted.status).toBe(200);
    }
  }

  for (const live of sim.chains.all()) {
    const models = await live.read();
    const fresh = new ChainIndexer(chainLogSource(live.publicClient, indexedEventsAbi(live.abis)), models.facts);
    await fresh.sync();

    expect(fresh.models.activity.size).toBeGreaterThan(5);
    expect(readModels(fresh.models)).toEqual(readModels(models));
    const objects = apiObjects(fresh.models);
    expect(objects.items.filter((item) => item.metadata !== undefined).length).toBeGreaterThanOrEqual(4);
    expect(objects).toEqual(apiObjects(models));
  }
  expect((await sim.chains.get(56)!.read()).sales.size).toBeGreaterThan(0);
});
