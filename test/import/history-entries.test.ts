import { zeroAddress } from "viem";
import { describe, expect, it } from "vitest";
import { marketEntry, MINTER, transferEntry } from "../../src/import/history-entries.ts";
import type { ItemEvent, MarketEvent, TransferEvent } from "../../src/schemas/item-event.ts";

const COLLECTION = "0xc011000000000000000000000000000000000004";
const ALICE = "0xa11ce00000000000000000000000000000000006";
const BOB = "0xb0b0000000000000000000000000000000000007";
const STABLECOIN = "0x5dc0000000000000000000000000000000000003";
const TX = `0x${"ab".repeat(32)}`;
const names: Record<string, string> = { [ALICE]: "alice", [BOB]: "bob" };
const account = (address: string) => names[address]!;

function transfer(from: string, to: string, amount: string): TransferEvent {
  return {
    id: "TransferSingle-10-0",
    event: "TransferSingle",
    amount,
    blockNumber: 10,
    chainId: 56,
    from,
    to,
    itemCollection: COLLECTION,
    itemRef: `56-${COLLECTION}-7`,
    timestamp: 1_000,
    tokenId: 7,
    transactionHash: TX,
  };
}

function market(event: MarketEvent["event"], fields: Partial<MarketEvent> = {}): MarketEvent {
  return {
    ...transfer(ALICE, "", "2"),
    id: `${event}-3-${TX}-1`,
    event,
    currency: zeroAddress,
    currencyPrice: 600,
    price: 0.25,
    worth: 0,
    ...fields,
  };
}

describe("transferEntry", () => {
  it("makes a mint by the importer, a burn, or a transfer, of the copy given", () => {
    expect(transferEntry(transfer(zeroAddress, ALICE, "5"), "sword", undefined, account)).toEqual({
      action: "mint",
      item: "sword",
      by: MINTER,
      to: "alice",
      amount: 5,
    });
    expect(transferEntry(transfer(ALICE, zeroAddress, "1"), "sword", 2, account)).toEqual({
      action: "burn",
      item: "sword",
      copy: 2,
      from: "alice",
      amount: 1,
    });
    expect(transferEntry(transfer(ALICE, BOB, "3"), "sword", undefined, account)).toMatchObject({
      action: "transfer",
      from: "alice",
      to: "bob",
      amount: 3,
    });
  });
});

describe("marketEntry", () => {
  const entry = (event: ItemEvent, approved = new Set<string>()) =>
    marketEntry(event, "l56-3", "sword", undefined, account, approved);

  it("lists under the listing the world names, noting its seller as one that approved", () => {
    const approved = new Set<string>();
    const first = entry(market("ItemListed"), approved);
    expect(first).toEqual({
      action: "list",
      listing: "l56-3",
      item: "sword",
      seller: "alice",
      amount: 2,
      price: "0.25",
      currency: "native",
    });
    expect(approved).toEqual(new Set(["alice"]));
    expect(entry(market("ItemListed", { currency: STABLECOIN }), approved)).toMatchObject({ currency: "stablecoin" });
  });

  it("buys the listing's tokens as the buyer, in any currency (the replay gives a stablecoin buyer coins first)", () => {
    for (const currency of [zeroAddress, STABLECOIN])
      expect(entry(market("Swapped", { to: BOB, currency }))).toEqual({
        action: "buy",
        listing: "l56-3",
        buyer: "bob",
        amount: 2,
      });
  });

  it("delists, reprices, tops up and takes back, the price written whole, never in exponent form", () => {
    expect(entry(market("ItemDelisted"))).toEqual({ action: "delist", listing: "l56-3" });
    expect(entry(market("ItemPriceUpdated", { price: 1e-7 }))).toEqual({
      action: "updatePrice",
      listing: "l56-3",
      price: "0.0000001",
    });
    expect(entry(market("ItemPriceUpdated", { price: 1e21 }))).toMatchObject({ price: "1000000000000000000000" });
    expect(entry(market("ItemAdded"))).toEqual({ action: "addToListing", listing: "l56-3", amount: 2 });
    expect(entry(market("ItemRemoved"))).toMatchObject({ action: "removeFromListing", amount: 2 });
  });

  it("makes nothing of an event whose id names no listing", () => {
    expect(entry(market("ItemListed", { id: "ItemListed" }))).toBeUndefined();
  });
});
