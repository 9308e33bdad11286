import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { parseScenario } from "../../src/scenario/load.ts";
import type { Simulator } from "../../src/simulator/simulator.ts";
import { postJson, startTestSimulator } from "../harness.ts";
import { ALICE, BOB, liveAccountsScenario, liveAccountsWorld, LORD, PLACED } from "./live-accounts.ts";

// Accounts named by their live address, without a key (as an imported world names live accounts): the chain sends as
// them by impersonation, so the API answers their addresses as `from`, `to` and `ownerAddress`; and the world comes out
// the same, block hashes included, when a start replays it from the world cache or a --state journal.

const world = () => liveAccountsWorld();

async function get(sim: Simulator, path: string): Promise<any> {
  const response = await fetch(`${sim.url}${path}`);
  expect(response.status, path).toBe(200);
  return response.json();
}

/** Every chain's head: its number and hash. */
async function heads(sim: Simulator): Promise<string[]> {
  const blocks = await Promise.all(
    sim.chains.all().map((chain) => chain.publicClient.getBlock({ blockTag: "latest" })),
  );
  return blocks.map((block, i) => `${sim.chains.all()[i]!.chainId}:${block.number}:${block.hash}`).sort();
}

describe("accounts at live addresses", () => {
  let sim: Simulator;
  beforeAll(async () => {
    sim = await startTestSimulator(world());
  });
  afterAll(() => sim?.close());

  it("answers the live owner as the collection's ownerAddress, and the live accounts as every event's from and to", async () => {
    const { collection } = await get(sim, `/api/v2/collection/${PLACED}`);
    expect(collection.ownerAddress).toBe(LORD);
    const { events } = await get(sim, `/api/v2/item/events/${PLACED}/1?perPage=100`);
    const listed = events.find((event: any) => event.event === "ItemListed");
    expect(listed.from).toBe(ALICE);
    const bought = events.filter((event: any) => event.event === "Swapped");
    expect(bought.map((event: any) => event.to)).toEqual([BOB, BOB]);
    const batch = events.find((event: any) => event.event === "TransferBatch");
    expect([batch.from, batch.to]).toEqual([ALICE, BOB]);
    // A stablecoin buyer at a live address is given coins as any other: alice bought the tiles.
    const tiles = await get(sim, "/api/v2/collection?chainId=137");
    const tile = tiles.collections[0].address;
    const { events: tileEvents } = await get(sim, `/api/v2/item/events/${tile}/1?perPage=100`);
    expect(tileEvents.find((event: any) => event.event === "Swapped").to).toBe(ALICE);
  });

  it("sends as a live account in a fragment too, and refuses an API key for one (it has no key to mint with)", async () => {
    const moved = await postJson(sim, "/_sim/scenario", {
      timeline: [{ action: "transfer", item: "coin", from: "bob", to: "alice", amount: 1 }],
    });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    const { events } = await get(sim, `/api/v2/item/events/${PLACED}/1?perPage=1`);
    expect(events[0]).toMatchObject({ event: "TransferSingle", from: BOB, to: ALICE });
    const keyed = await postJson(sim, "/_sim/scenario", { apiKeys: [{ key: "bob-key", account: "bob" }] });
    expect(keyed.status).toBe(400);
    expect(JSON.stringify(keyed.body)).toContain("is at an address without a key");
  });

  it("is refused with both a key and an address, or two accounts at one address", () => {
    const scenario = liveAccountsScenario();
    scenario.accounts[3].keyLabel = "alice";
    scenario.accounts[4].address = ALICE.toUpperCase().replace("0X", "0x");
    expect(() => parseScenario(scenario)).toThrow(
      /accounts\[3\]: an account has a key \(keyLabel\) or an address, not both.*accounts\[4\]\.address: .* is also the address of account 'alice'/s,
    );
  });
});

describe("accounts at live addresses across a restart", () => {
  it("come out the same, block hashes included, from the world cache and from a --state journal", async () => {
    const warn = vi.spyOn(console, "warn");
    // A world is cached only with a fixed base URL (a port of 0 is another each start).
    const cache = { cacheDir: mkdtempSync(join(tmpdir(), "live-accounts-cache-")), publicUrl: "http://sim.test" };
    const stateDir = mkdtempSync(join(tmpdir(), "live-accounts-state-"));
    const first = await startTestSimulator(world(), { ...cache, stateDir });
    let before: string[];
    let history: unknown;
    try {
      await first.live;
      // A write as a live account after the world loaded: the journal records it.
      const moved = await postJson(first, "/_sim/scenario", {
        timeline: [{ action: "transfer", item: "coin", from: "bob", to: "lord", amount: 1 }],
      });
      expect(moved.status, JSON.stringify(moved.body)).toBe(200);
      before = await heads(first);
      history = await get(first, `/api/v2/item/events/${PLACED}/1?perPage=100`);
    } finally {
      await first.close();
    }
    const again = await startTestSimulator(world(), { ...cache, stateDir });
    try {
      await again.live;
      expect(await heads(again)).toEqual(before);
      expect(await get(again, `/api/v2/item/events/${PLACED}/1?perPage=100`)).toEqual(history);
    } finally {
      await again.close();
    }
    // From the world cache alone (no journal): its chains replay the world to the cached heads.
    const cached = await startTestSimulator(world(), cache);
    try {
      expect(cached.load.source).toBe("cache");
      await cached.live;
      const { events } = await get(cached, `/api/v2/item/events/${PLACED}/1?perPage=1`);
      expect(events[0].from).not.toBe(BOB);
    } finally {
      await cached.close();
    }
    const differ = warn.mock.calls.filter(([message]) =>
      /differs from what the chains replayed|journal's replay ends/.test(String(message)),
    );
    expect(differ).toEqual([]);
    warn.mockRestore();
  }, 240_000);
});
