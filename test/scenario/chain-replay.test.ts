import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { toHex } from "viem";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { addressOf, keyFor } from "../../src/core/keys.ts";
import { parseScenario } from "../../src/scenario/load.ts";
import type { Simulator } from "../../src/simulator/simulator.ts";
import { mintItem, startTestSimulator } from "../harness.ts";
import { readWorld } from "../world-reads.ts";
import {
  BEFORE,
  DAY,
  NOW,
  OVERDRAWN,
  PUBLIC_URL,
  SHARED,
  sharedBlockScenario,
  sharedBlockWorld,
  THREE,
} from "./shared-block-world.ts";

// Timeline entries that name one block go in it together (as an imported world's events of one live block do): mined
// in one block at their time, in the timeline's order, and a restart or the world cache makes the same block again.

const bob = addressOf(keyFor("account/bob"));
const scenario = sharedBlockScenario;
const world = (entries = THREE, before = BEFORE) => sharedBlockWorld(entries, {}, before);

async function get(sim: Simulator, path: string): Promise<any> {
  const response = await fetch(`${sim.url}${path}`);
  expect(response.status, path).toBe(200);
  return response.json();
}

const blockAt = (sim: Simulator, number: number) =>
  sim.chains.get(56)!.request("eth_getBlockByNumber", [toHex(number), false]) as Promise<{
    hash: string;
    timestamp: string;
    transactions: string[];
  }>;

/** Each event of the coin's history in the shared block and the one after it, newest first: kind, block, log index. */
async function coinLogs(sim: Simulator, collection: string) {
  const coin = (await get(sim, `/api/v2/item/events/${collection}/1`)).events;
  return coin.slice(0, 5).map((event: any) => [event.event, event.blockNumber, event.id.split("-").at(-1)]);
}

describe("entries that name one block", () => {
  let sim: Simulator;
  let collection: string;
  beforeAll(async () => {
    sim = await startTestSimulator(world());
    collection = sim.handles.collections.get("riders")!.address;
  });
  afterAll(() => sim?.close());

  it("go in it together, at their time, in the timeline's order; the listing's approval in a free block before it", async () => {
    const block = await blockAt(sim, SHARED);
    expect(block.transactions).toHaveLength(3);
    expect(Number(block.timestamp)).toBe(NOW - DAY);
    const badge = (await get(sim, `/api/v2/item/events/${collection}/2`)).events;
    const coin = (await get(sim, `/api/v2/item/events/${collection}/1`)).events;
    const inShared = [...badge, ...coin].filter((event: any) => event.blockNumber === SHARED);
    expect(inShared.map((event: any) => event.event).sort()).toEqual(
      ["ItemListed", "Swapped", "TransferSingle", "TransferSingle", "TransferSingle"].sort(),
    );
    for (const event of inShared) expect(event.timestamp).toBe(NOW - DAY);
    // The transfer was first in the block: its log is the block's first.
    expect(badge[0]).toMatchObject({ event: "TransferSingle", id: `TransferSingle-${SHARED}-0`, amount: "2" });
    // The coin's: escrowed and listed right after it (the block holds no approval: its logs are numbered as the live
    // block's), then sold out of escrow; newest first.
    expect(await coinLogs(sim, collection)).toEqual([
      ["TransferSingle", SHARED + 1, "0"],
      ["Swapped", SHARED, "4"],
      ["TransferSingle", SHARED, "3"],
      ["ItemListed", SHARED, "2"],
      ["TransferSingle", SHARED, "1"],
    ]);
    // The approval went in the first free block after the badge's mint, the rest stayed empty.
    expect((await blockAt(sim, 51_000_151)).transactions).toHaveLength(1);
    expect((await blockAt(sim, SHARED - 1)).transactions).toHaveLength(0);
    // The entry after them names the next block, and gets it.
    expect((await blockAt(sim, SHARED + 1)).transactions).toHaveLength(1);
  });
});

describe("entries that name one block right after another entry's", () => {
  it("leave the approval last in that entry's block: no block is free below, and neither block's logs are renumbered", async () => {
    const before = [{ at: "-2d", block: SHARED - 1, action: "addItem", item: "badge", by: "studio", to: "alice" }];
    const sim = await startTestSimulator(world(THREE, before));
    try {
      expect((await blockAt(sim, SHARED)).transactions).toHaveLength(3);
      const below = await blockAt(sim, SHARED - 1);
      expect(below.transactions).toHaveLength(2);
      expect(Number(below.timestamp)).toBe(NOW - 2 * DAY);
      const collection = sim.handles.collections.get("riders")!.address;
      // Escrowed and listed right after the transfer (log 0), then sold out of escrow: the live block's numbering.
      expect((await coinLogs(sim, collection)).slice(1)).toEqual([
        ["Swapped", SHARED, "4"],
        ["TransferSingle", SHARED, "3"],
        ["ItemListed", SHARED, "2"],
        ["TransferSingle", SHARED, "1"],
      ]);
      // The badge's mint keeps the first logs of its block.
      const badge = (await get(sim, `/api/v2/item/events/${collection}/2`)).events;
      expect(badge.at(-1)).toMatchObject({ blockNumber: SHARED - 1, id: `TransferSingle-${SHARED - 1}-1` });
    } finally {
      await sim.close();
    }
  });

  it("give a stablecoin buyer its coins and allowance in the free blocks before, where it buys from an open listing", async () => {
    const listed = {
      at: "-2d",
      block: 51_000_160,
      action: "list",
      listing: "l0",
      item: "coin",
      seller: "alice",
      amount: 2,
      price: "3",
      currency: "stablecoin",
    };
    const shared = [
      { at: "-1d", block: SHARED, action: "transfer", item: "badge", from: "alice", to: "bob", amount: 2 },
      { at: "-1d", block: SHARED, action: "buy", listing: "l0", buyer: "carol", amount: 1 },
    ];
    const sim = await startTestSimulator(world(shared, [...BEFORE, listed]));
    try {
      expect((await blockAt(sim, SHARED)).transactions).toHaveLength(2);
      // The faucet's coins, then the allowance, each a block of its own after the listing's.
      for (const block of [51_000_161, 51_000_162]) expect((await blockAt(sim, block)).transactions).toHaveLength(1);
      const collection = sim.handles.collections.get("riders")!.address;
      // The buy's own logs only: the stablecoin's Transfer to the seller (1), the token out of escrow, the sale.
      expect((await coinLogs(sim, collection)).slice(1, 3)).toEqual([
        ["Swapped", SHARED, "3"],
        ["TransferSingle", SHARED, "2"],
      ]);
    } finally {
      await sim.close();
    }
  });

  it.each([1, 2])(
    "give a stablecoin buyer its coins and allowance last in the listing's block, %i below, where the free blocks are too few: the buy's logs stay the live ones",
    async (below) => {
      const listed = {
        at: "-2d",
        block: SHARED - below,
        action: "list",
        listing: "l0",
        item: "coin",
        seller: "alice",
        amount: 2,
        price: "3",
        currency: "stablecoin",
      };
      const shared = [
        { at: "-1d", block: SHARED, action: "transfer", item: "badge", from: "alice", to: "bob", amount: 2 },
        { at: "-1d", block: SHARED, action: "buy", listing: "l0", buyer: "carol", amount: 1 },
      ];
      const sim = await startTestSimulator(world(shared, [...BEFORE, listed]));
      try {
        // The listing, then the faucet's coins and the allowance, after it in its block.
        expect((await blockAt(sim, SHARED - below)).transactions).toHaveLength(3);
        expect((await blockAt(sim, SHARED)).transactions).toHaveLength(2);
        const collection = sim.handles.collections.get("riders")!.address;
        expect((await coinLogs(sim, collection)).slice(1, 5)).toEqual([
          ["Swapped", SHARED, "3"],
          ["TransferSingle", SHARED, "2"],
          ["ItemListed", SHARED - below, "1"],
          ["TransferSingle", SHARED - below, "0"],
        ]);
      } finally {
        await sim.close();
      }
    },
  );
});

describe("an entry alone in its block that sends something first", () => {
  // The shared world's first listing, alone in a block of its own.
  const listing = (block: number) => ({ ...THREE[1]!, block });

  it("lands in the block it names, its approval in a free block below", async () => {
    const sim = await startTestSimulator(world([listing(SHARED)]));
    try {
      expect((await blockAt(sim, SHARED)).transactions).toHaveLength(1);
      expect((await blockAt(sim, 51_000_151)).transactions).toHaveLength(1);
      const collection = sim.handles.collections.get("riders")!.address;
      expect((await coinLogs(sim, collection)).slice(1, 3)).toEqual([
        ["ItemListed", SHARED, "1"],
        ["TransferSingle", SHARED, "0"],
      ]);
    } finally {
      await sim.close();
    }
  });

  it("lands in the block it names right after another entry's, its approval last in that one: no block is free below", async () => {
    const transfer = {
      at: "-1d",
      block: SHARED - 1,
      action: "transfer",
      item: "badge",
      from: "alice",
      to: "bob",
      amount: 1,
    };
    const sim = await startTestSimulator(world([transfer, listing(SHARED)]));
    try {
      expect((await blockAt(sim, SHARED - 1)).transactions).toHaveLength(2);
      expect((await blockAt(sim, SHARED)).transactions).toHaveLength(1);
      const collection = sim.handles.collections.get("riders")!.address;
      // Escrowed and listed as the block's only transaction; the transfer first in its block.
      expect((await coinLogs(sim, collection)).slice(1, 3)).toEqual([
        ["ItemListed", SHARED, "1"],
        ["TransferSingle", SHARED, "0"],
      ]);
      const badge = (await get(sim, `/api/v2/item/events/${collection}/2`)).events;
      expect(badge[0]).toMatchObject({ blockNumber: SHARED - 1, id: `TransferSingle-${SHARED - 1}-0` });
      expect((await blockAt(sim, SHARED + 1)).transactions).toHaveLength(1);
    } finally {
      await sim.close();
    }
  });
});

describe("a shared block that cannot be made", () => {
  it("fails the start naming the entry whose transaction would revert there", async () => {
    // The second transfer needs what the first moved away in the same block.
    await expect(startTestSimulator(world(OVERDRAWN))).rejects.toThrow(
      /timeline\[3\] \(transfer at -1d\) failed on chain 56: .*ERC1155InsufficientBalance/,
    );
  });

  it("is refused before anything is sent where its entries name different times", () => {
    const entries = [
      { at: "-1d", block: SHARED, action: "transfer", item: "badge", from: "alice", to: "bob", amount: 1 },
      { at: "-1d", block: SHARED, action: "transfer", item: "badge", from: "alice", to: "carol", amount: 1 },
    ];
    entries[1]!.at = "-23h";
    expect(() => parseScenario(scenario(entries))).toThrow(
      /timeline\[3\]\.block: block 51000200 is also timeline\[2\]'s, at -1d, not -23h: entries that share a block share its time/,
    );
  });
});

describe("a shared block across a restart and from the world cache", () => {
  const dir = mkdtempSync(join(tmpdir(), "shared-block-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const cache = { cacheDir: join(dir, "cache"), publicUrl: PUBLIC_URL };

  it("is made again, the same block (its hash) and every answer, after the journal's mints", async () => {
    const first = await startTestSimulator(world(), { ...cache, stateDir: join(dir, "state") });
    let hash: string;
    let answers: Map<string, string>;
    try {
      await first.live;
      hash = (await blockAt(first, SHARED)).hash;
      const collection = first.handles.collections.get("riders")!.address;
      const minted = await mintItem(first, { collection, chainId: 56, apiKey: "shared-studio-key", recipient: bob });
      expect(minted.status).toBe(200);
      answers = (await readWorld(first.url, { control: false })).answers;
    } finally {
      await first.close();
    }
    const warn = vi.spyOn(console, "warn");
    const again = await startTestSimulator(world(), { ...cache, stateDir: join(dir, "state") });
    try {
      await again.live;
      expect((await blockAt(again, SHARED)).hash).toBe(hash);
      expect((await readWorld(again.url, { control: false })).answers).toEqual(answers);
    } finally {
      await again.close();
    }
    // Without the journal, a start answers from the world cached by the first, and its chains make the same head.
    const cached = await startTestSimulator(world(), cache);
    try {
      expect(cached.load.source).toBe("cache");
      await cached.live;
      expect((await blockAt(cached, SHARED)).hash).toBe(hash);
      expect(warn.mock.calls.flat().join("\n")).not.toMatch(/differs from what the chains replayed/);
    } finally {
      await cached.close();
      warn.mockRestore();
    }
  }, 180_000);
  it("is made the same by a cold start and by the chains behind a cached world, where the item listed is minted just below", async () => {
    // The badge minted two blocks below its first listing: one block free for the listing's approval. Behind a cached
    // world every item's handle is known before the chains replay it; the replay must place the approval as a cold
    // start does, where the item is not yet minted when the listing's set-ups are counted.
    const minted = { ...BEFORE[0]!, block: SHARED - 2 };
    const listed = {
      at: "-1d",
      block: SHARED,
      action: "list",
      listing: "l1",
      item: "badge",
      seller: "alice",
      amount: 1,
      price: "0.5",
      currency: "native",
    };
    const own = { cacheDir: join(dir, "cache-minted-below"), publicUrl: PUBLIC_URL };
    const cold = await startTestSimulator(world([listed], [minted]), own);
    let hashes: string[];
    try {
      await cold.live;
      expect(cold.load.source).not.toBe("cache");
      // The approval in the free block between, the listing alone in its own.
      expect((await blockAt(cold, SHARED - 1)).transactions).toHaveLength(1);
      expect((await blockAt(cold, SHARED)).transactions).toHaveLength(1);
      hashes = await Promise.all([SHARED - 2, SHARED - 1, SHARED].map(async (n) => (await blockAt(cold, n)).hash));
    } finally {
      await cold.close();
    }
    const warn = vi.spyOn(console, "warn");
    const cached = await startTestSimulator(world([listed], [minted]), own);
    try {
      expect(cached.load.source).toBe("cache");
      await cached.live;
      const again = await Promise.all(
        [SHARED - 2, SHARED - 1, SHARED].map(async (n) => (await blockAt(cached, n)).hash),
      );
      expect(again).toEqual(hashes);
      expect(warn.mock.calls.flat().join("\n")).not.toMatch(/differs from what the chains replayed/);
    } finally {
      await cached.close();
      warn.mockRestore();
    }
  }, 180_000);
});
