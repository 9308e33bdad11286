import { zeroAddress } from "viem";
import { describe, expect, it } from "vitest";
import type { LiveCollection } from "../../src/import/live-reads.ts";
import { toScenario } from "../../src/import/to-scenario.ts";
import { parseScenario } from "../../src/scenario/load.ts";
import type { ItemEvent } from "../../src/schemas/item-event.ts";

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
    const named = new Map((scenario.accounts as { name: string; address?: string }[]).map((a) => [a.name, a.address]));
    expect(named.get((scenario.collections as { owner: string }[])[0]!.owner)).toBe(OWNER);
    const buy = scenario.timeline.find((entry) => entry.action === "buy") as { buyer: string };
    expect(named.get(buy.buyer)).toBe(BOB);
    // No account is the marketplace: its escrow moves are the listing's and the sale's own.
    expect([...named.values()]).not.toContain(MARKET);
    expect(parseScenario(structuredClone(scenario)).steps.length).toBeGreaterThan(0);
  });

  it("keeps two blocks below a buyer's first stablecoin purchase on the chain, in time order across the collections", () => {
    // Bob's first purchase is in the second collection (block 200), his later one in the first (block 300).
    const { scenario } = toScenario([collection(1, 150, 300), collection(2, 160, 200)], { mintKey: "mint", now: NOW });
    const buys = scenario.timeline.filter((entry) => entry.action === "buy") as { listing: string; block: number }[];
    expect(buys.map(({ listing, block }) => [listing, block])).toEqual([
      ["l56-2", 198],
      ["l56-1", 300],
    ]);
  });
});
