import { zeroAddress } from "viem";
import { describe, expect, it } from "vitest";
import type { LiveCollection } from "../../src/import/live-reads.ts";
import { toScenario } from "../../src/import/to-scenario.ts";
import { parseScenario } from "../../src/scenario/load.ts";
import { scenarioWorld } from "../../src/scenario/replay.ts";
import { startTestSimulator } from "../harness.ts";
import type { ItemEvent } from "../../src/schemas/item-event.ts";
import type { LiveItem } from "../../src/import/live-reads.ts";
import type { Collection } from "../../src/schemas/collection.ts";

describe("live accounts", () => {
  // The live history as a scenario: accounts at their live addresses, and each buyer's first stablecoin purchase on a
  // chain found across the collections in time order.

  const OWNER = "0x0000000000000000000000000000000000000a01";
  const ALICE = "0x0000000000000000000000000000000000000a11";
  const BOB = "0x0000000000000000000000000000000000000b0b";
  const MARKET = "0x0000000000000000000000000000000000000c0c";
  const STABLECOIN = "0x0000000000000000000000000000000000000d0d";
  const NOW = new Date("2025-06-01T12:00:00Z");
  const t = (block: number) => Math.floor(NOW.getTime() / 1000) - 100_000 + block;

  /** One collection: its token 1 minted to alice, listed by her for the stablecoin, bought by bob at `bought`. */
  function collection(n: number, listed: number, bought: number): LiveCollection {
    const address = `0x00000000000000000000000000000000000000c${n}`;
    const base = { amount: "1", chainId: 56, itemCollection: address, itemRef: `56-${address}-1`, tokenId: 1 };
    const tx = (block: number) => `0x${block.toString(16).padStart(64, "0")}`;
    const transfer = (block: number, from: string, to: string, log: number) => ({
      ...base,
      id: `TransferSingle-${block}-${log}`,
      event: "TransferSingle" as const,
      blockNumber: block,
      timestamp: t(block),
      from,
      to,
      transactionHash: tx(block),
    });
    const market = (event: "ItemListed" | "Swapped", block: number, to: string) => ({
      ...transfer(block, ALICE, to, 1),
      id: `${event}-${n}-${tx(block)}-1`,
      event,
      currency: STABLECOIN,
      currencyPrice: 1,
      price: 2,
      worth: 2,
    });
    const events = [
      market("Swapped", bought, BOB),
      transfer(bought, MARKET, BOB, 0),
      market("ItemListed", listed, ""),
      transfer(listed, ALICE, MARKET, 0),
      transfer(50 + n, zeroAddress, ALICE, 0),
    ] as ItemEvent[];
    return {
      collection: {
        address,
        chainId: 56,
        name: `Collection ${n}`,
        slug: `collection-${n}`,
        ownerAddress: OWNER,
        mintDate: new Date(t(40) * 1000).toISOString(),
        description: "",
        genre: "",
        image: "",
        imageHash: "",
        website: "",
      } as never,
      items: [{ tokenId: 1, metadata: { name: "Token", isStackable: true }, events }],
    };
  }

  describe("toScenario", () => {
    it("names each live account by its live address, the collection's owner too, in a world the scenario schema takes", () => {
      const { scenario } = toScenario([collection(1, 150, 300)], { mintKey: "mint", now: NOW });
      expect(scenario.accounts).toEqual([
        { name: "importer", keyLabel: "import/importer" },
        { name: expect.any(String), address: OWNER },
        { name: expect.any(String), address: ALICE },
        { name: expect.any(String), address: BOB },
      ]);
      const named = new Map(
        (scenario.accounts as { name: string; address?: string }[]).map((a) => [a.name, a.address]),
      );
      expect(named.get((scenario.collections as { owner: string }[])[0]!.owner)).toBe(OWNER);
      const buy = scenario.timeline.find((entry) => entry.action === "buy") as { buyer: string };
      expect(named.get(buy.buyer)).toBe(BOB);
      // No account is the marketplace: its escrow moves are the listing's and the sale's own.
      expect([...named.values()]).not.toContain(MARKET);
      expect(parseScenario(structuredClone(scenario)).steps.length).toBeGreaterThan(0);
    });

    it("names each purchase at its live block, in time order across the collections (the replay gives the coins below)", () => {
      // Bob's first purchase is in the second collection (block 200), his later one in the first (block 300).
      const { scenario } = toScenario([collection(1, 150, 300), collection(2, 160, 200)], {
        mintKey: "mint",
        now: NOW,
      });
      const buys = scenario.timeline.filter((entry) => entry.action === "buy") as { listing: string; block: number }[];
      expect(buys.map(({ listing, block }) => [listing, block])).toEqual([
        ["l56-2", 200],
        ["l56-1", 300],
      ]);
    });
  });
});

describe("live blocks", () => {
  // A live history as the import reads it, made a scenario: where each entry goes, block by block.

  const ADDRESS = "0xc011000000000000000000000000000000000004";
  const A = "0xa000000000000000000000000000000000000001";
  const B = "0xb000000000000000000000000000000000000002";
  const C = "0xc000000000000000000000000000000000000003";
  const MARKET = "0x3000000000000000000000000000000000000009";
  const START = 1_700_000_000;
  const time = (block: number) => START + block * 3;
  const tx = (n: number) => `0x${n.toString(16).padStart(64, "0")}`;

  function transfer(block: number, logIndex: number, tokenId: number, from: string, to: string, amount = 1): ItemEvent {
    return {
      id: `TransferSingle-${block}-${logIndex}`,
      event: "TransferSingle",
      amount: String(amount),
      blockNumber: block,
      chainId: 56,
      from,
      to,
      itemCollection: ADDRESS,
      itemRef: `56-${ADDRESS}-${tokenId}`,
      timestamp: time(block),
      tokenId,
      transactionHash: tx(block * 100 + logIndex),
    };
  }

  /** A first listing: its escrow transfer and its ItemListed, one transaction. */
  function listing(block: number, logIndex: number, tokenId: number, seller: string, listingId: number): ItemEvent[] {
    const escrow = { ...transfer(block, logIndex, tokenId, seller, MARKET) };
    const listed = {
      ...escrow,
      id: `ItemListed-${listingId}-${escrow.transactionHash}-${logIndex + 1}`,
      event: "ItemListed",
      to: "",
      currency: zeroAddress,
      currencyPrice: 600,
      price: 2,
      worth: 0,
    } as ItemEvent;
    return [listed, escrow];
  }

  const collection = {
    address: ADDRESS,
    chainId: 56,
    name: "Live",
    description: "",
    genre: "Art",
    image: "",
    imageHash: "",
    ownerAddress: A,
    slug: "live",
    uri: "https://live.example/meta",
    website: "",
    mintDate: new Date(time(50) * 1000).toISOString(),
    holders: 3,
    volume_1d: 0,
    volume_1w: 0,
    volume_30d: 0,
    volume_all: 0,
  } as unknown as Collection;

  // Newest first, as the API answers them. Block 200 held two transactions: token 2 moved (log 0), then token 1 listed by
  // a first-time seller (logs 2 and 3). Token 1 is listed first in the live items, so only the log index orders them.
  const token1: LiveItem = {
    tokenId: 1,
    metadata: { name: "One" },
    events: [
      ...listing(501, 0, 1, C, 3),
      transfer(300, 0, 1, A, C),
      ...listing(200, 2, 1, A, 1),
      transfer(100, 0, 1, zeroAddress, A, 5),
    ],
  };
  const token2: LiveItem = {
    tokenId: 2,
    metadata: { name: "Two" },
    events: [
      transfer(500, 0, 2, B, C),
      ...listing(400, 0, 2, B, 2),
      transfer(200, 0, 2, A, B, 3),
      transfer(110, 0, 2, zeroAddress, A, 5),
    ],
  };

  const translated = toScenario([{ collection, items: [token1, token2] }], {
    mintKey: "k",
    now: new Date((time(600) + 60) * 1000),
  });
  const entries = translated.scenario.timeline as { action: string; block: number; at: string; item?: string }[];

  describe("toScenario: where each entry goes", () => {
    it("gives the entries of a live block that held several transactions that block, in its log order, approvals in it", () => {
      const shared = entries.filter((entry) => entry.block === 200);
      expect(shared.map((entry) => [entry.action, entry.item])).toEqual([
        ["transfer", "c1-live-2"],
        ["list", "c1-live-1"],
      ]);
      expect(new Set(shared.map((entry) => entry.at)).size).toBe(1);
      expect(entries.some((entry) => entry.block === 199)).toBe(false);
    });

    it("names each lone event's live block, whatever its entry sends first (the replay places that below it)", () => {
      expect(entries.map((entry) => [entry.action, entry.block])).toEqual([
        ["addItem", 100],
        ["addItem", 110],
        ["transfer", 200],
        ["list", 200],
        ["transfer", 300],
        // B's first listing: its approval goes in a free block below 400.
        ["list", 400],
        ["transfer", 500],
        // C's first listing: block 500 is token 2's, so its approval goes last in 500 (the replay's to place).
        ["list", 501],
      ]);
      expect(translated.events).toBe(11);
    });

    it("places the chain's marketplace at the escrow its listings moved their tokens to", () => {
      expect(translated.marketplaces).toEqual([{ chainId: 56, address: MARKET, transfers: 3, others: [] }]);
      expect(translated.scenario.chains).toEqual([
        { chainId: 56, startBlock: expect.any(Number), marketplace: MARKET },
      ]);
    });

    it("writes a world that loads: entries that share a block share its time", () => {
      expect(() => parseScenario(translated.scenario)).not.toThrow();
    });

    it("mints a token whose history lacks its mint in a free block below its shared block, so the block holds the live transactions only", () => {
      // Block 200 held two transfers: token 1's (log 0), then token 2's (log 1), whose history starts there.
      const minted: LiveItem = {
        tokenId: 1,
        metadata: { name: "One" },
        events: [transfer(200, 0, 1, A, B), transfer(110, 0, 1, zeroAddress, A, 5)],
      };
      const unminted: LiveItem = { tokenId: 2, metadata: { name: "Two" }, events: [transfer(200, 1, 2, A, B)] };
      const { scenario } = toScenario([{ collection, items: [minted, unminted] }], {
        mintKey: "k",
        now: new Date((time(600) + 60) * 1000),
      });
      const placed = scenario.timeline.map((entry) => [entry.action, entry.item, entry.block]);
      expect(placed).toEqual([
        ["addItem", "c1-live-1", 110],
        // Just above the chain's previous live block: the blocks below 200 stay free for what its entries send first.
        ["addItem", "c1-live-2", 111],
        ["transfer", "c1-live-1", 200],
        ["transfer", "c1-live-2", 200],
      ]);
      expect(() => parseScenario(scenario)).not.toThrow();
    });

    it("mints a token whose history lacks its mint as many as its first holder moves before it receives any", async () => {
      // Token 1's history starts with 5 moved from A to B; A sends 2 more to C after B gives 3 back, and B lists 1.
      const unminted: LiveItem = {
        tokenId: 1,
        metadata: { name: "One", isStackable: true },
        events: [
          ...listing(400, 0, 1, B, 1),
          transfer(300, 0, 1, A, C, 2),
          transfer(250, 0, 1, B, A, 3),
          transfer(200, 0, 1, A, B, 5),
        ],
      };
      const { scenario } = toScenario([{ collection, items: [unminted] }], {
        mintKey: "k",
        now: new Date((time(600) + 60) * 1000),
      });
      const [item] = scenario.items as { initialSupply: number; maximumSupply: number }[];
      // A held 5 before B gave 3 back; the 2 it sent then were of those 3.
      expect(item).toMatchObject({ initialSupply: 5, maximumSupply: 5 });
      // The world loads: every live transfer replays (with 1 minted, the first one reverts and the start fails).
      const sim = await startTestSimulator(
        scenarioWorld(parseScenario(scenario), { baseUrl: "http://127.0.0.1:3000" }),
      );
      try {
        const answer = await fetch(`${sim.url}/api/v2/item/events/${ADDRESS}/1?perPage=20`);
        const moved = ((await answer.json()).events as ItemEvent[]).filter((e) => e.event === "TransferSingle");
        expect(moved.map(({ from, to, amount, blockNumber }) => [from, to, amount, blockNumber])).toEqual([
          [B, MARKET, "1", 400],
          [A, C, "2", 300],
          [B, A, "3", 250],
          [A, B, "5", 200],
          [zeroAddress, A, "5", 199],
        ]);
      } finally {
        await sim.close();
      }
    }, 60_000);

    it("mints a token whose history lacks its mint before any higher token id's mint, so each keeps its live id", () => {
      // Token 1's history starts at block 200, after token 2 was minted (at 110): live, token 1 was minted first.
      const unminted: LiveItem = { tokenId: 1, metadata: { name: "One" }, events: [transfer(200, 0, 1, A, B)] };
      const minted: LiveItem = {
        tokenId: 2,
        metadata: { name: "Two" },
        events: [transfer(110, 0, 2, zeroAddress, A, 5)],
      };
      const translated = toScenario([{ collection, items: [unminted, minted] }], {
        mintKey: "k",
        now: new Date((time(600) + 60) * 1000),
      });
      const placed = translated.scenario.timeline.map((entry) => [entry.action, entry.item, entry.to, entry.block]);
      expect(placed).toEqual([
        ["addItem", "c1-live-1", "a1-a0000000", 109],
        ["addItem", "c1-live-2", "a1-a0000000", 110],
        ["transfer", "c1-live-1", "a2-b0000000", 200],
      ]);
      expect(translated.added.mints).toEqual([`${ADDRESS}/1`]);
    });
  });
});
