import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addressOf, keyFor } from "../../src/core/keys.ts";
import { parseScenario } from "../../src/scenario/load.ts";
import { scenarioWorld } from "../../src/scenario/replay.ts";
import { SNAPSHOT_BASE_URL } from "../../src/scenario/worlds.ts";
import type { Simulator } from "../../src/simulator/simulator.ts";
import { placeCollection } from "../../src/chain/actions/place-collection.ts";
import { encodeFunctionData, type Address } from "viem";
import { startTestSimulator } from "../harness.ts";

// The small scenario with one collection placed at a given address (as an imported world places a live collection):
// the chain holds it there, the factory announced it, and the API, its mints and the marketplace treat it as any other.

const SMALL = JSON.parse(readFileSync(new URL("./small-scenario.json", import.meta.url), "utf8"));
const PLACED = "0xdB0047cb1dfc44696f6e9868ef6bb40000280b05";
const placed = PLACED.toLowerCase() as `0x${string}`;
const bob = addressOf(keyFor("account/bob"));

let sim: Simulator;

const placedWorld = () => {
  const scenario = structuredClone(SMALL);
  scenario.collections[0].address = PLACED;
  return scenarioWorld(parseScenario(scenario), { baseUrl: SNAPSHOT_BASE_URL });
};

function mintLate(on: Simulator, name: string): Promise<Response> {
  return fetch(`${on.url}/api/v2/item/new?apiKey=small-studio-key`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ collectionAddress: placed, recipient: bob, chainId: 56, item: { name, initialSupply: 1 } }),
  });
}

async function get(path: string): Promise<any> {
  const response = await fetch(`${sim.url}${path}`);
  expect(response.status, path).toBe(200);
  return response.json();
}

beforeAll(async () => {
  sim = await startTestSimulator(placedWorld());
});
afterAll(() => sim?.close());

describe("a collection placed at a given address", () => {
  it("answers at that address, created by its owner at its time, the other collection where the factory put it", async () => {
    const { collection: riders } = await get(`/api/v2/collection/${placed}`);
    expect(riders).toMatchObject({ address: placed, name: "Dragon Riders", chainId: 56, slug: "dragon-riders" });
    const { collections } = await get("/api/v2/collection");
    const tiles = collections.find((c: any) => c.slug === "harbor-tiles");
    expect(tiles.address).not.toBe(placed);
    expect(collections.map((c: any) => c.address)).toContain(placed);
  });

  it("holds its history there: mints, transfers and the marketplace's listing and sales", async () => {
    const { events } = await get(`/api/v2/item/events/${placed}/1?perPage=100`);
    const kinds = new Set(events.map((e: any) => e.event));
    for (const kind of ["TransferSingle", "TransferBatch", "ItemListed", "ItemPriceUpdated", "Swapped", "ItemDelisted"])
      expect(kinds, kind).toContain(kind);
    for (const event of events) {
      expect(event.itemCollection).toBe(placed);
      expect(event.itemRef).toBe(`56-${placed}-1`);
    }
    expect(await get("/metadata/56/dragon-riders/1")).toMatchObject({ name: "Gold Coin" });
  });

  it("mints more through the API with the world's developer key", async () => {
    const minted = await mintLate(sim, "Late Sword");
    expect(minted.status).toBe(200);
    expect((await minted.json()).tokenIds).toEqual([5]);
    const { events } = await get(`/api/v2/item/events/${placed}/5`);
    expect(events).toMatchObject([{ event: "TransferSingle", itemCollection: placed, to: bob.toLowerCase() }]);
  });

  it("the factory takes an announcement only of the Collection's code, from its owner, once", async () => {
    const chain = sim.chains.get(56)!;
    const studio = addressOf(keyFor("developer/studio"));
    const announce = (from: Address, collection: Address) =>
      chain.write(from, {
        to: chain.contracts.factory,
        data: encodeFunctionData({
          abi: chain.abis.factory,
          functionName: "announceCollection",
          args: [collection, "0x"],
        }),
      });
    await expect(announce(studio, chain.contracts.marketplace)).rejects.toThrow(/NotACollection/);
    await expect(announce(bob, placed)).rejects.toThrow(/AlreadyKnown/);
    await expect(announce(studio, placed)).rejects.toThrow(/AlreadyKnown/);
  });

  it("is refused where an account of the chain already is", async () => {
    const chain = sim.chains.get(56)!;
    const studio = addressOf(keyFor("developer/studio"));
    const params = { from: studio, owner: studio, name: "Again", uri: "u", minters: [], metadata: "0x" as const };
    await expect(placeCollection(chain, { ...params, address: placed })).rejects.toThrow(/is taken on chain 56/);
    await expect(placeCollection(chain, { ...params, address: chain.contracts.marketplace })).rejects.toThrow(
      /is taken/,
    );
  });
});

describe("a placed collection across a restart", () => {
  it("is where it was after the journal replays the world and its mints, and takes more mints there", async () => {
    const stateDir = mkdtempSync(join(tmpdir(), "placed-"));
    const first = await startTestSimulator(placedWorld(), { stateDir });
    try {
      await first.live;
      expect((await mintLate(first, "Before")).status).toBe(200);
    } finally {
      await first.close();
    }
    const again = await startTestSimulator(placedWorld(), { stateDir });
    try {
      await again.live;
      const before = await fetch(`${again.url}/api/v2/item/events/${placed}/5`);
      expect(before.status).toBe(200);
      expect((await before.json()).events[0].itemCollection).toBe(placed);
      const after = await mintLate(again, "After");
      expect(after.status).toBe(200);
      expect((await after.json()).tokenIds).toEqual([6]);
    } finally {
      await again.close();
    }
  }, 120_000);
});
