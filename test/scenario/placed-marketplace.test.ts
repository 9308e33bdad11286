import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { getContractAddress } from "viem";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { addressOf, deployerKey, keyFor } from "../../src/core/keys.ts";
import { parseScenario } from "../../src/scenario/load.ts";
import { scenarioWorld } from "../../src/scenario/replay.ts";
import { SNAPSHOT_BASE_URL } from "../../src/scenario/worlds.ts";
import type { Simulator } from "../../src/simulator/simulator.ts";
import { postJson, startTestSimulator } from "../harness.ts";

// The small scenario with each chain's marketplace at a given address (as an imported world places the live one): its
// listings move their tokens into that escrow, its sales out of it, stablecoin buyers let it take their coins, and the
// world answers as the same scenario with the marketplace where the chain deploys it, that address for the other.

const SMALL = JSON.parse(readFileSync(new URL("./small-scenario.json", import.meta.url), "utf8"));
const MARKETS = {
  56: "0xe29f0b490f0d89ca7acac1c7bed2e07ecad65201",
  137: "0x3000000000000000000000000000000000000137",
} as const;

const worldWith = (marketplaces: Record<number, string>) => {
  const scenario = structuredClone(SMALL);
  scenario.chains = [
    { chainId: 56, marketplace: marketplaces[56] },
    { chainId: 137, startBlock: 60_000_000, marketplace: marketplaces[137] },
  ];
  return scenarioWorld(parseScenario(scenario), { baseUrl: SNAPSHOT_BASE_URL });
};
const placedWorld = () => worldWith(MARKETS);
const deployedWorld = () => scenarioWorld(parseScenario(SMALL), { baseUrl: SNAPSHOT_BASE_URL });

async function get(sim: Simulator, path: string): Promise<any> {
  const response = await fetch(`${sim.url}${path}`);
  expect(response.status, path).toBe(200);
  return response.json();
}

/** Every answer the world's collections give: the list, each collection, and each item's history, by URL. */
async function answers(sim: Simulator): Promise<Record<string, any>> {
  const list = await get(sim, "/api/v2/collection?perPage=100");
  const all: Record<string, any> = { "/collection": list };
  for (const { address } of list.collections)
    all[`/collection/${address}`] = await get(sim, `/api/v2/collection/${address}`);
  const { items } = await get(sim, "/_sim/world");
  for (const { collection, tokenIds } of Object.values(items) as { collection: string; tokenIds: number[] }[])
    for (const tokenId of tokenIds) {
      const path = `/api/v2/item/events/${collection}/${tokenId}?perPage=100`;
      all[path] = await get(sim, path);
    }
  return all;
}

/** An answer with its transactions' hashes and the ids that embed them left out, and `rename` applied to addresses. */
function withoutHashes(answer: unknown, rename: (address: string) => string): unknown {
  return JSON.parse(
    JSON.stringify(answer, (key, value) => (key === "transactionHash" || key === "id" ? undefined : value)),
    (_key, value) => (typeof value === "string" ? rename(value) : value),
  );
}

describe("a marketplace placed at a given address", () => {
  let placed: Simulator;
  let deployed: Simulator;
  beforeAll(async () => {
    [placed, deployed] = await Promise.all([startTestSimulator(placedWorld()), startTestSimulator(deployedWorld())]);
  }, 120_000);
  afterAll(() => Promise.all([placed?.close(), deployed?.close()]));

  it("is each chain's marketplace: the world's contracts name it, listings escrow there, sales and delistings leave it", async () => {
    const { chains } = await get(placed, "/_sim/world");
    expect(chains.map(({ chainId, contracts }: any) => [chainId, contracts.marketplace])).toEqual([
      [56, MARKETS[56]],
      [137, MARKETS[137]],
    ]);
    for (const chain of placed.chains.all()) expect(chain.contracts.marketplace).toBe(MARKETS[chain.chainId as 56]);
    const riders = (await get(placed, "/_sim/world")).collections.riders.address;
    const { events } = await get(placed, `/api/v2/item/events/${riders}/1?perPage=100`);
    const moves = events.filter((event: any) => event.event === "TransferSingle");
    expect(moves.filter((event: any) => event.to === MARKETS[56])).not.toHaveLength(0);
    expect(moves.filter((event: any) => event.from === MARKETS[56])).not.toHaveLength(0);
  });

  it("answers as the same world with the chain's own marketplace, its address for the other's (but transaction hashes)", async () => {
    const own = Object.fromEntries(
      deployed.chains.all().map((chain) => [chain.contracts.marketplace, MARKETS[chain.chainId as 56]]),
    );
    const local = await answers(placed);
    const reference = await answers(deployed);
    expect(Object.keys(local)).toEqual(Object.keys(reference));
    expect(Object.keys(local).length).toBeGreaterThan(4);
    const rename = (value: string) => own[value] ?? value;
    for (const url of Object.keys(local))
      expect(
        withoutHashes(local[url], (value) => value),
        url,
      ).toEqual(withoutHashes(reference[url], rename));
  });

  it("takes a listing sent after the world loaded into its escrow", async () => {
    const listed = await postJson(placed, "/_sim/scenario", {
      timeline: [
        { action: "list", listing: "late", item: "coin", seller: "bob", amount: 1, price: "1", currency: "native" },
      ],
    });
    expect(listed.status, JSON.stringify(listed.body)).toBe(200);
    const riders = (await get(placed, "/_sim/world")).collections.riders.address;
    const { events } = await get(placed, `/api/v2/item/events/${riders}/1?perPage=2`);
    expect(events.map((event: any) => [event.event, event.to])).toEqual([
      ["ItemListed", ""],
      ["TransferSingle", MARKETS[56]],
    ]);
  });

  it("is refused where a contract of the chain already is", async () => {
    const factory = getContractAddress({ from: addressOf(deployerKey(56)), nonce: 0n });
    await expect(startTestSimulator(worldWith({ ...MARKETS, 56: factory }))).rejects.toThrow(
      /is taken on chain 56: the marketplace cannot be placed there/,
    );
  }, 60_000);
});

describe("a placed marketplace across a restart", () => {
  it("is where it was when the world answers from the world cache, and after its chains replayed it", async () => {
    const warn = vi.spyOn(console, "warn");
    // A world is cached only with a fixed base URL (a port of 0 is another each start).
    const cache = { cacheDir: mkdtempSync(join(tmpdir(), "placed-market-cache-")), publicUrl: "http://sim.test" };
    const cold = await startTestSimulator(placedWorld(), cache);
    let before: Record<string, any>;
    try {
      await cold.live;
      before = await answers(cold);
    } finally {
      await cold.close();
    }
    const cached = await startTestSimulator(placedWorld(), cache);
    try {
      expect(cached.load.source).toBe("cache");
      expect(await answers(cached)).toEqual(before);
      expect((await get(cached, "/_sim/world")).chains[0].contracts.marketplace).toBe(MARKETS[56]);
      await cached.live;
      for (const chain of cached.chains.all()) expect(chain.contracts.marketplace).toBe(MARKETS[chain.chainId as 56]);
      expect(await answers(cached)).toEqual(before);
    } finally {
      await cached.close();
    }
    expect(
      warn.mock.calls.filter(([message]) => /differs from what the chains replayed/.test(String(message))),
    ).toEqual([]);
    warn.mockRestore();
  }, 240_000);

  it("takes the journal's listing into the same escrow when a --state start replays it", async () => {
    const stateDir = mkdtempSync(join(tmpdir(), "placed-market-state-"));
    const first = await startTestSimulator(placedWorld(), { stateDir });
    let before: Record<string, any>;
    try {
      await first.live;
      const listed = await postJson(first, "/_sim/scenario", {
        timeline: [
          { action: "list", listing: "late", item: "coin", seller: "bob", amount: 1, price: "1", currency: "native" },
        ],
      });
      expect(listed.status, JSON.stringify(listed.body)).toBe(200);
      before = await answers(first);
    } finally {
      await first.close();
    }
    const again = await startTestSimulator(placedWorld(), { stateDir });
    try {
      await again.live;
      const after = await answers(again);
      expect(after).toEqual(before);
      const riders = (await get(again, "/_sim/world")).collections.riders.address;
      const [, escrowed] = after[`/api/v2/item/events/${riders}/1?perPage=100`].events;
      expect(escrowed).toMatchObject({
        event: "TransferSingle",
        from: addressOf(keyFor("account/bob")),
        to: MARKETS[56],
      });
    } finally {
      await again.close();
    }
  }, 240_000);
});
