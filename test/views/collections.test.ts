import { stringToHex, zeroAddress, type Address } from "viem";
import { describe, expect, it } from "vitest";
import { advanceHead, applyLogs } from "../../src/indexer/apply.ts";
import { emptyModels, type ChainModels } from "../../src/indexer/models.ts";
import { encodeCollectionDescription } from "../../src/metadata/codec.ts";
import { collectionViews } from "../../src/views/collections.ts";
import {
  ALICE,
  BOB,
  CAROL,
  chainFacts,
  COLLECTION,
  createCollection,
  GENESIS,
  LogBook,
  market,
  MARKETPLACE,
  STABLECOIN,
} from "../indexer/logs.ts";

const DAY = 86_400;

function fold(book: LogBook): ChainModels {
  const models = emptyModels(chainFacts());
  applyLogs(models, book.logs, book.blockTimes());
  advanceHead(models, { number: book.logs.at(-1)!.blockNumber, timestamp: BigInt(GENESIS + 86_400 * 365) });
  return models;
}

function mintTo(book: LogBook, tokenId: bigint, to: Address, amount: bigint): LogBook {
  return book
    .add("ItemCreated", COLLECTION, {
      tokenId,
      creator: ALICE,
      maxSupply: amount,
      initialSupply: amount,
      royaltyPerMille: 0n,
    })
    .add(
      "TransferSingle",
      COLLECTION,
      { operator: ALICE, from: zeroAddress, to, id: tokenId, value: amount },
      { sameBlock: true },
    );
}

const viewOf = (models: ChainModels) => collectionViews(models).get(COLLECTION)!;

describe("a collection's view", () => {
  it("answers the chain's facts with the metadata its creation carried, the list summary without imageUrl, all frozen", () => {
    const metadata = encodeCollectionDescription("Cards", {
      description: "d",
      genre: "g",
      image: "i.png",
      imageHash: "h",
      slug: "cards",
      website: "w",
      isVerified: false,
    });
    const view = viewOf(fold(createCollection(new LogBook(), COLLECTION, ALICE, metadata)));
    expect(view.collection).toEqual({
      address: COLLECTION,
      name: "Cards",
      description: "d",
      genre: "g",
      image: "i.png",
      imageHash: "h",
      ownerAddress: ALICE,
      slug: "cards",
      uri: "http://x/cards",
      website: "w",
      mintDate: new Date((GENESIS + 60) * 1000).toISOString(),
      chainId: 56,
      holders: 0,
      volume_1d: 0,
      volume_1w: 0,
      volume_30d: 0,
      volume_all: 0,
      imageUrl: "i.png",
    });
    const { imageUrl: _imageUrl, ...summary } = view.collection;
    expect(view.summary).toEqual(summary);
    expect(view.isVerified).toBe(false);
    expect([view, view.collection, view.summary].every(Object.isFrozen)).toBe(true);
  });

  it("is made again only when the models change", () => {
    const models = fold(createCollection(new LogBook()));
    const views = collectionViews(models);
    expect(collectionViews(models)).toBe(views);
    advanceHead(models, { number: 99n, timestamp: BigInt(GENESIS + 86_400 * 400) });
    expect(collectionViews(models)).not.toBe(views);
  });

  it("a collection created without metadata (or with bytes that are not a collection's) has the defaults, its slug from its name", () => {
    for (const metadata of ["0x", stringToHex("nonsense"), stringToHex('{"isVerified":"yes"}')] as const) {
      const view = viewOf(fold(createCollection(new LogBook(), COLLECTION, ALICE, metadata)));
      expect(view.collection).toMatchObject({ description: "", genre: "", image: "", slug: "cards", website: "" });
      expect(view.isVerified).toBe(true);
    }
  });

  it("counts distinct holders; escrowed tokens count for their seller, never for the marketplace", () => {
    const book = mintTo(mintTo(createCollection(new LogBook()), 1n, ALICE, 4n), 2n, BOB, 1n)
      .add("TransferSingle", COLLECTION, { operator: BOB, from: BOB, to: ALICE, id: 2n, value: 1n })
      .add("TransferSingle", COLLECTION, { operator: CAROL, from: ALICE, to: CAROL, id: 1n, value: 1n });
    expect(viewOf(fold(book)).collection.holders).toBe(2);
    // Carol puts her only token in escrow: she still holds it.
    book
      .add("TransferSingle", COLLECTION, { operator: MARKETPLACE, from: CAROL, to: MARKETPLACE, id: 1n, value: 1n })
      .add("ItemListed", MARKETPLACE, market(1n, CAROL, 1n, 1n, 5n), { sameBlock: true });
    expect(viewOf(fold(book)).collection.holders).toBe(2);
    // Bob buys it: Carol holds nothing now, Bob holds again.
    book
      .add("TransferSingle", COLLECTION, { operator: MARKETPLACE, from: MARKETPLACE, to: BOB, id: 1n, value: 1n })
      .add("Swapped", MARKETPLACE, { ...market(1n, CAROL, 1n, 1n, 5n), buyer: BOB }, { sameBlock: true });
    expect(viewOf(fold(book)).collection.holders).toBe(2);
    book.add("TransferSingle", COLLECTION, { operator: BOB, from: BOB, to: zeroAddress, id: 1n, value: 1n });
    expect(viewOf(fold(book)).collection.holders).toBe(1);
  });
});

describe("volumes", () => {
  /** Two stablecoin sales in one block: 0.1 and 0.2 USD. */
  function sold(): ChainModels {
    const book = mintTo(createCollection(new LogBook()), 1n, ALICE, 4n)
      .add("ItemListed", MARKETPLACE, market(1n, ALICE, 1n, 4n, 100_000n, STABLECOIN))
      .add("Swapped", MARKETPLACE, { ...market(1n, ALICE, 1n, 1n, 100_000n, STABLECOIN), buyer: BOB })
      .add(
        "Swapped",
        MARKETPLACE,
        { ...market(1n, ALICE, 1n, 2n, 100_000n, STABLECOIN), buyer: CAROL },
        { sameBlock: true },
      );
    return fold(book);
  }
  const saleTime = GENESIS + 4 * 60;

  function volumesAt(models: ChainModels, age: number) {
    advanceHead(models, { number: 99n, timestamp: BigInt(saleTime + age) });
    const { volume_1d, volume_1w, volume_30d, volume_all } = viewOf(models).collection;
    return [volume_1d, volume_1w, volume_30d, volume_all];
  }

  it("sum the sales' worth in windows that end at the head's time, rounded to cents at the end", () => {
    const models = sold();
    expect(volumesAt(models, 0)).toEqual([0.3, 0.3, 0.3, 0.3]);
    expect(volumesAt(models, DAY - 1)).toEqual([0.3, 0.3, 0.3, 0.3]);
    expect(volumesAt(models, DAY)).toEqual([0, 0.3, 0.3, 0.3]);
    expect(volumesAt(models, 7 * DAY - 1)).toEqual([0, 0.3, 0.3, 0.3]);
    expect(volumesAt(models, 7 * DAY)).toEqual([0, 0, 0.3, 0.3]);
    expect(volumesAt(models, 30 * DAY - 1)).toEqual([0, 0, 0.3, 0.3]);
    expect(volumesAt(models, 30 * DAY)).toEqual([0, 0, 0, 0.3]);
  });

  it("add up each sale's worth as its event answers it, already rounded to cents", () => {
    // Two sales of 0.006 USD each: each is worth 0.01, the volume 0.02 (not 0.012 rounded to 0.01).
    const book = mintTo(createCollection(new LogBook()), 1n, ALICE, 2n)
      .add("ItemListed", MARKETPLACE, market(1n, ALICE, 1n, 2n, 6_000n, STABLECOIN))
      .add("Swapped", MARKETPLACE, { ...market(1n, ALICE, 1n, 1n, 6_000n, STABLECOIN), buyer: BOB })
      .add("Swapped", MARKETPLACE, { ...market(1n, ALICE, 1n, 1n, 6_000n, STABLECOIN), buyer: CAROL });
    expect(viewOf(fold(book)).collection.volume_all).toBe(0.02);
  });
});
