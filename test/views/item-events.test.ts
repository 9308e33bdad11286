import { zeroAddress } from "viem";
import { describe, expect, it } from "vitest";
import { applyLogs } from "../../src/indexer/apply.ts";
import { emptyModels, type ChainModels } from "../../src/indexer/models.ts";
import { itemEvent } from "../../src/views/item-event.ts";
import { itemEventsPage } from "../../src/views/item-event.ts";
import {
  ALICE,
  BOB,
  chainFacts,
  COLLECTION,
  createCollection,
  GENESIS,
  LogBook,
  market,
  MARKETPLACE,
  STABLECOIN,
  txHash,
} from "../indexer/logs.ts";

function fold(book: LogBook): ChainModels {
  const models = emptyModels(chainFacts());
  applyLogs(models, book.logs, book.blockTimes());
  return models;
}

const ref = `56-${COLLECTION}-1`;

/** Token 1: minted, listed for 1.5 of the native coin, 3 bought; token 2 sold for a price in the 6-decimal stablecoin. */
function trades(): ChainModels {
  return fold(
    createCollection(new LogBook())
      .add("ItemCreated", COLLECTION, {
        tokenId: 1n,
        creator: ALICE,
        maxSupply: 10n,
        initialSupply: 10n,
        royaltyPerMille: 0n,
      })
      .add(
        "TransferSingle",
        COLLECTION,
        { operator: ALICE, from: zeroAddress, to: ALICE, id: 1n, value: 10n },
        { sameBlock: true },
      )
      .add("ItemListed", MARKETPLACE, market(4n, ALICE, 1n, 5n, 1_500_000_000_000_000_000n))
      .add("Swapped", MARKETPLACE, { ...market(4n, ALICE, 1n, 3n, 1_500_000_000_000_000_000n), buyer: BOB })
      .add("ItemCreated", COLLECTION, {
        tokenId: 2n,
        creator: ALICE,
        maxSupply: 5n,
        initialSupply: 5n,
        royaltyPerMille: 0n,
      })
      .add("ItemListed", MARKETPLACE, market(5n, ALICE, 2n, 5n, 1_234_567n, STABLECOIN))
      .add("Swapped", MARKETPLACE, { ...market(5n, ALICE, 2n, 3n, 1_234_567n, STABLECOIN), buyer: BOB }),
  );
}

describe("item events are built from facts", () => {
  it("a transfer: id <Event>-<block>-<logIndex>, amount as text, the itemRef", () => {
    const [mint] = itemEventsPage(trades(), COLLECTION, 1n, { page: 1, perPage: 10 })!.slice(-1);
    expect(mint).toEqual({
      id: "TransferSingle-2-1",
      amount: "10",
      blockNumber: 2,
      chainId: 56,
      event: "TransferSingle",
      from: zeroAddress,
      itemCollection: COLLECTION,
      itemRef: ref,
      timestamp: GENESIS + 120,
      to: ALICE,
      tokenId: 1,
      transactionHash: txHash(2n),
    });
  });

  it("a listing and a sale in the native coin (18 decimals): id <Event>-<listingId>-<txHash>-<logIndex>, worth only on the sale", () => {
    const [sale, listing] = itemEventsPage(trades(), COLLECTION, 1n, { page: 1, perPage: 2 })!;
    expect(listing).toEqual({
      id: `ItemListed-4-${txHash(3n)}-0`,
      amount: "5",
      blockNumber: 3,
      chainId: 56,
      currency: zeroAddress,
      currencyPrice: 600,
      event: "ItemListed",
      from: ALICE,
      itemCollection: COLLECTION,
      itemRef: ref,
      price: 1.5,
      timestamp: GENESIS + 180,
      to: "",
      tokenId: 1,
      transactionHash: txHash(3n),
      worth: 0,
    });
    expect(sale).toMatchObject({
      id: `Swapped-4-${txHash(4n)}-0`,
      event: "Swapped",
      from: ALICE,
      to: BOB,
      amount: "3",
      price: 1.5,
      worth: 2700,
    });
  });

  it("a price in the stablecoin (6 decimals), the worth rounded to cents", () => {
    const [sale] = itemEventsPage(trades(), COLLECTION, 2n, { page: 1, perPage: 1 })!;
    // 1.234567 × 3 × 1 USD = 3.703701
    expect(sale).toMatchObject({ currency: STABLECOIN, currencyPrice: 1, price: 1.234567, worth: 3.7 });
  });

  it("each fact's event is made once and frozen", () => {
    const models = trades();
    const first = itemEventsPage(models, COLLECTION, 1n, { page: 1, perPage: 10 })!;
    const again = itemEventsPage(models, COLLECTION, 1n, { page: 1, perPage: 10 })!;
    first.forEach((event, i) => expect(again[i]).toBe(event));
    expect(first.every(Object.isFrozen)).toBe(true);
    expect(itemEvent(models.facts, models.sales.get(COLLECTION)![0]!)).toBe(first[0]);
  });
});

describe("an item's history pages", () => {
  const models = trades();
  const ids = (page: number, perPage: number) =>
    itemEventsPage(models, COLLECTION, 1n, { page, perPage })?.map((event) => event.blockNumber);

  it("newest first, pages that neither overlap nor skip, empty beyond the last", () => {
    expect(ids(1, 10)).toEqual([4, 3, 2]);
    expect(ids(1, 2)).toEqual([4, 3]);
    expect(ids(2, 2)).toEqual([2]);
    expect(ids(3, 2)).toEqual([]);
    expect(ids(9, 1)).toEqual([]);
  });

  it("an item the chain created without activity has an empty history; an unknown one has none", () => {
    expect(itemEventsPage(models, COLLECTION, 2n, { page: 1, perPage: 5 })).toHaveLength(2);
    const created = fold(
      createCollection(new LogBook()).add("ItemCreated", COLLECTION, {
        tokenId: 1n,
        creator: ALICE,
        maxSupply: 1n,
        initialSupply: 0n,
        royaltyPerMille: 0n,
      }),
    );
    expect(itemEventsPage(created, COLLECTION, 1n, { page: 1, perPage: 5 })).toEqual([]);
    expect(itemEventsPage(models, COLLECTION, 3n, { page: 1, perPage: 5 })).toBeUndefined();
  });
});
