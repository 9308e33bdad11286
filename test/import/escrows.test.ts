import { describe, expect, it } from "vitest";
import { escrowsOf, listingNames, liveMarketplaces } from "../../src/import/escrows.ts";
import type { LiveCollection } from "../../src/import/live-reads.ts";
import type { ItemEvent } from "../../src/schemas/item-event.ts";

// Where each chain's marketplace is, as the histories the import read tell it: the escrow of its listings.

const SELLER = "0xa000000000000000000000000000000000000001";
const BUYER = "0xb000000000000000000000000000000000000002";
const FIRST = "0x3000000000000000000000000000000000000001";
const SECOND = "0x3000000000000000000000000000000000000002";

/** A listing at `block` through the marketplace whose escrow is `escrow`, and its sale a block later (newest first). */
function listedAndSold(block: number, escrow: string): Partial<ItemEvent>[] {
  const tx = (n: number) => `0x${n.toString(16).padStart(64, "0")}`;
  return [
    { event: "Swapped", from: SELLER, to: BUYER, transactionHash: tx(block + 1), blockNumber: block + 1 },
    { event: "TransferSingle", from: escrow, to: BUYER, transactionHash: tx(block + 1), blockNumber: block + 1 },
    { event: "ItemListed", from: SELLER, to: "", transactionHash: tx(block), blockNumber: block },
    { event: "TransferSingle", from: SELLER, to: escrow, transactionHash: tx(block), blockNumber: block },
  ];
}

const collection = (chainId: number, histories: Partial<ItemEvent>[][]): LiveCollection =>
  ({
    collection: { chainId },
    items: histories.map((events, i) => ({ tokenId: i + 1, metadata: undefined, events })),
  }) as unknown as LiveCollection;

describe("escrowsOf", () => {
  it("counts the end of a market event's transfer that is neither its seller nor its buyer, and nothing else", () => {
    const plain = { event: "TransferSingle", from: SELLER, to: BUYER, transactionHash: "0x01" };
    expect(escrowsOf([listedAndSold(10, FIRST), [plain], listedAndSold(20, SECOND)])).toEqual(
      new Map([
        [FIRST, 2],
        [SECOND, 2],
      ]),
    );
  });
});

describe("liveMarketplaces", () => {
  it("places each chain's marketplace at the escrow most transfers name, naming the others; none where no listing shows one", () => {
    const chain56 = collection(56, [listedAndSold(30, FIRST), listedAndSold(10, SECOND), listedAndSold(50, SECOND)]);
    const chain137 = collection(137, [
      [{ event: "TransferSingle", from: SELLER, to: BUYER, transactionHash: "0x02", blockNumber: 5 }],
    ]);
    expect(liveMarketplaces([chain56, chain137])).toEqual([
      { chainId: 56, address: SECOND, transfers: 4, others: [{ address: FIRST, transfers: 2 }] },
    ]);
  });

  it("on a tie takes the escrow used first, whatever order the histories were read in", () => {
    const later = collection(56, [listedAndSold(90, FIRST)]);
    const earlier = collection(56, [listedAndSold(10, SECOND)]);
    expect(liveMarketplaces([later, earlier])).toMatchObject([
      { chainId: 56, address: SECOND, others: [{ address: FIRST }] },
    ]);
  });

  it("writes addresses lower-case", () => {
    const upper = `0x${FIRST.slice(2).toUpperCase()}`;
    expect(liveMarketplaces([collection(56, [listedAndSold(10, upper)])])[0]!.address).toBe(FIRST);
  });
});

describe("listingNames", () => {
  const event = (kind: string, listingId: number, itemRef = "56-0xc0-1") =>
    ({ event: kind, id: `${kind}-${listingId}-0x01-1`, chainId: 56, itemRef, from: SELLER, to: "" }) as const;
  const into = (escrow: string) => [{ event: "TransferSingle", from: SELLER, to: escrow }];
  const marketplaces = [{ chainId: 56, address: FIRST, transfers: 2, others: [{ address: SECOND, transfers: 1 }] }];

  it("names one listing id of two marketplaces apart: the placed one's plainly, the other's by its rank", () => {
    const names = listingNames(marketplaces);
    expect(names(event("ItemListed", 7), into(FIRST))).toBe("l56-7");
    expect(names(event("ItemListed", 7, "56-0xc0-2"), into(SECOND))).toBe("l56-m2-7");
  });

  it("names an event that moves no token (a price update) as its item's listing of that id", () => {
    const names = listingNames(marketplaces);
    names(event("ItemListed", 7, "56-0xc0-2"), into(SECOND));
    expect(names(event("ItemPriceUpdated", 7, "56-0xc0-2"), [])).toBe("l56-m2-7");
    expect(names(event("ItemPriceUpdated", 7), [])).toBe("l56-7");
  });
});
