import { stringToHex, zeroAddress, type Address } from "viem";
import { describe, expect, it } from "vitest";
import { itemKey, type ChainModels } from "../../src/indexer/models.ts";
import {
  ALICE,
  BOB,
  CAROL,
  COLLECTION,
  createCollection,
  FACTORY,
  fold,
  GENESIS,
  itemCreated,
  LogBook,
  market,
  MARKETPLACE,
  mintedBook,
  OTHER_COLLECTION,
  STABLECOIN,
  txHash,
} from "./logs.ts";

const time = (block: number) => GENESIS + block * 60;
const place = (block: number, logIndex = 0) => ({
  blockNumber: block,
  logIndex,
  transactionHash: txHash(BigInt(block)),
  timestamp: time(block),
});
const balancesOf = (models: ChainModels, tokenId: bigint) =>
  Object.fromEntries(models.balances.get(itemKey(COLLECTION, tokenId)) ?? []);
const activityOf = (models: ChainModels, tokenId: bigint) => models.activity.get(itemKey(COLLECTION, tokenId));

/** Token 1 minted to Alice: 5 of it, at most 10, with a royalty of 5%. */
const minted = () => mintedBook({ maxSupply: 10n, royaltyPerMille: 50n });

describe("reducers fold decoded logs into facts", () => {
  it("a collection's metadata and an item's description, as the chain told them", () => {
    const described = createCollection(new LogBook(), COLLECTION, ALICE);
    described.logs[0]!.args = { ...described.logs[0]!.args, metadata: stringToHex('{"genre":"Art"}') } as never;
    const book = described
      .add("ItemCreated", COLLECTION, itemCreated(1n))
      .add("ItemCreated", COLLECTION, itemCreated(2n), { sameBlock: true })
      .add(
        "ItemDescribed",
        COLLECTION,
        { firstTokenId: 1n, count: 2n, stackable: false, metadata: stringToHex('{"name":"Twin"}') },
        { sameBlock: true },
      );
    const models = fold(book);
    expect(models.collections.get(COLLECTION)?.metadata).toBe('{"genre":"Art"}');
    const description = { stackable: false, metadata: '{"name":"Twin"}' };
    expect(models.items.get(itemKey(COLLECTION, 1n))?.creation).toEqual({
      transactionHash: txHash(2n),
      tokenIds: [1n, 2n],
      description,
    });
    // Both token ids share the one creation, so both are described.
    expect(models.items.get(itemKey(COLLECTION, 2n))?.creation.description).toEqual(description);
  });

  it("an ItemDescribed from another transaction than the item's creation, or of an unknown collection, describes nothing", () => {
    const book = minted()
      .add("ItemDescribed", COLLECTION, { firstTokenId: 1n, count: 1n, stackable: true, metadata: stringToHex("{}") })
      .add("ItemDescribed", OTHER_COLLECTION, {
        firstTokenId: 1n,
        count: 1n,
        stackable: true,
        metadata: stringToHex("{}"),
      });
    expect(fold(book)).toEqual(fold(minted()));
  });

  it("a collection and a mint", () => {
    const models = fold(minted());
    expect([...models.collections.values()]).toEqual([
      {
        chainId: 56,
        address: COLLECTION,
        owner: ALICE,
        name: "Cards",
        uri: "http://x/cards",
        createdAt: time(1),
        metadata: "",
      },
    ]);
    expect(models.items.get(itemKey(COLLECTION, 1n))).toEqual({
      maxSupply: 10n,
      royaltyPerMille: 50,
      creation: { transactionHash: txHash(2n), tokenIds: [1n] },
    });
    expect(balancesOf(models, 1n)).toEqual({ [ALICE]: 5n });
    expect(activityOf(models, 1n)).toEqual([
      {
        kind: "TransferSingle",
        ...place(2, 1),
        collection: COLLECTION,
        tokenId: 1n,
        from: zeroAddress,
        to: ALICE,
        amount: 5n,
      },
    ]);
  });

  it("a transfer moves balance and records who, how many, where", () => {
    const models = fold(
      minted().add("TransferSingle", COLLECTION, { operator: ALICE, from: ALICE, to: BOB, id: 1n, value: 2n }),
    );
    expect(balancesOf(models, 1n)).toEqual({ [ALICE]: 3n, [BOB]: 2n });
    expect(activityOf(models, 1n)?.[1]).toEqual({
      kind: "TransferSingle",
      ...place(3),
      collection: COLLECTION,
      tokenId: 1n,
      from: ALICE,
      to: BOB,
      amount: 2n,
    });
  });

  it("token ids one transaction creates share their creation; a batch with a repeated id gives one fact per id", () => {
    const book = minted()
      .add("ItemCreated", COLLECTION, itemCreated(2n))
      .add("ItemCreated", COLLECTION, itemCreated(3n), { sameBlock: true })
      .add(
        "TransferBatch",
        COLLECTION,
        { operator: ALICE, from: zeroAddress, to: ALICE, ids: [2n, 3n], values: [1n, 1n] },
        { sameBlock: true },
      )
      .add("TransferBatch", COLLECTION, {
        operator: ALICE,
        from: ALICE,
        to: BOB,
        ids: [1n, 2n, 1n],
        values: [1n, 1n, 2n],
      });
    const models = fold(book);
    const creation = { transactionHash: txHash(3n), tokenIds: [2n, 3n] };
    expect(models.items.get(itemKey(COLLECTION, 2n))).toEqual({ maxSupply: 1n, royaltyPerMille: 0, creation });
    expect(models.items.get(itemKey(COLLECTION, 3n))!.creation).toBe(
      models.items.get(itemKey(COLLECTION, 2n))!.creation,
    );
    expect(models.items.get(itemKey(COLLECTION, 1n))!.creation.tokenIds).toEqual([1n]);
    expect(balancesOf(models, 1n)).toEqual({ [ALICE]: 2n, [BOB]: 3n });
    expect(balancesOf(models, 2n)).toEqual({ [BOB]: 1n });
    expect(activityOf(models, 1n)?.slice(1)).toEqual([
      { kind: "TransferBatch", ...place(4), collection: COLLECTION, tokenId: 1n, from: ALICE, to: BOB, amount: 3n },
    ]);
    expect(activityOf(models, 2n)).toEqual([
      {
        kind: "TransferBatch",
        ...place(3, 2),
        collection: COLLECTION,
        tokenId: 2n,
        from: zeroAddress,
        to: ALICE,
        amount: 1n,
      },
      { kind: "TransferBatch", ...place(4), collection: COLLECTION, tokenId: 2n, from: ALICE, to: BOB, amount: 1n },
    ]);
  });

  it("a burn leaves the zero address out of the balances", () => {
    const models = fold(
      minted().add("TransferSingle", COLLECTION, { operator: ALICE, from: ALICE, to: zeroAddress, id: 1n, value: 5n }),
    );
    expect(models.balances.get(itemKey(COLLECTION, 1n))?.size).toBe(0);
    expect(activityOf(models, 1n)?.[1]).toMatchObject({
      kind: "TransferSingle",
      from: ALICE,
      to: zeroAddress,
      amount: 5n,
    });
  });

  it("a listing's escrow follows list, add, remove and a partial buy, and ends with the delisting", () => {
    const price = 2n * 10n ** 6n;
    const book = minted()
      .add("TransferSingle", COLLECTION, { operator: MARKETPLACE, from: ALICE, to: MARKETPLACE, id: 1n, value: 2n })
      .add("ItemListed", MARKETPLACE, market(7n, ALICE, 1n, 2n, price, STABLECOIN), { sameBlock: true });
    const listed = fold(book);
    expect(listed.listings.get(7n)).toEqual({ seller: ALICE, collection: COLLECTION, amount: 2n });
    expect(balancesOf(listed, 1n)).toEqual({ [ALICE]: 3n, [MARKETPLACE]: 2n });

    book.add("ItemAdded", MARKETPLACE, market(7n, ALICE, 1n, 2n, price, STABLECOIN));
    expect(fold(book).listings.get(7n)?.amount).toBe(4n);
    book.add("ItemRemoved", MARKETPLACE, market(7n, ALICE, 1n, 1n, price, STABLECOIN));
    expect(fold(book).listings.get(7n)?.amount).toBe(3n);
    book.add("ItemPriceUpdated", MARKETPLACE, market(7n, ALICE, 1n, 3n, price * 2n, STABLECOIN));
    book.add("Swapped", MARKETPLACE, { ...market(7n, ALICE, 1n, 1n, price * 2n, STABLECOIN), buyer: BOB });
    const bought = fold(book);
    expect(bought.listings.get(7n)?.amount).toBe(2n);
    const sale = {
      kind: "Swapped",
      ...place(7),
      collection: COLLECTION,
      tokenId: 1n,
      from: ALICE,
      to: BOB,
      amount: 1n,
      listingId: 7n,
      price: price * 2n,
      currency: STABLECOIN,
    };
    expect(activityOf(bought, 1n)?.at(-1)).toEqual(sale);
    expect(bought.sales.get(COLLECTION)).toEqual([sale]);
    expect(bought.sales.get(COLLECTION)![0]).toBe(activityOf(bought, 1n)?.at(-1));

    book.add("ItemDelisted", MARKETPLACE, market(7n, ALICE, 1n, 2n, price * 2n, STABLECOIN));
    const delisted = fold(book);
    expect(delisted.listings.has(7n)).toBe(false);
    expect(activityOf(delisted, 1n)?.map((fact) => fact.kind)).toEqual([
      "TransferSingle",
      "TransferSingle",
      "ItemListed",
      "ItemAdded",
      "ItemRemoved",
      "ItemPriceUpdated",
      "Swapped",
      "ItemDelisted",
    ]);
    expect(activityOf(delisted, 1n)?.[2]).toEqual({
      kind: "ItemListed",
      ...place(3, 1),
      collection: COLLECTION,
      tokenId: 1n,
      from: ALICE,
      to: "",
      amount: 2n,
      listingId: 7n,
      price,
      currency: STABLECOIN,
    });
  });

  it("a listing bought out entirely is gone", () => {
    const book = minted()
      .add("ItemListed", MARKETPLACE, market(1n, ALICE, 1n, 2n, 10n))
      .add("Swapped", MARKETPLACE, { ...market(1n, ALICE, 1n, 2n, 10n), buyer: BOB });
    expect(fold(book).listings.size).toBe(0);
  });

  it("ignores logs of unknown collections, a foreign factory and a foreign marketplace", () => {
    const foreign: Address = "0xf0e1000000000000000000000000000000000009";
    const book = minted()
      .add("CollectionCreated", foreign, {
        collection: OTHER_COLLECTION,
        owner: BOB,
        name: "Fake",
        uri: "",
        metadata: "0x",
      })
      .mint(OTHER_COLLECTION, itemCreated(1n, { creator: BOB }))
      .add("TransferBatch", OTHER_COLLECTION, { operator: BOB, from: zeroAddress, to: BOB, ids: [2n], values: [1n] })
      .add("ItemListed", MARKETPLACE, market(1n, BOB, 1n, 1n, 10n, zeroAddress, OTHER_COLLECTION))
      .add("ItemListed", foreign, market(2n, ALICE, 1n, 1n, 10n))
      .add("Swapped", foreign, { ...market(2n, ALICE, 1n, 1n, 10n), buyer: CAROL });
    expect(fold(book)).toEqual(fold(minted()));
  });

  it("takes the factory's address in any case", () => {
    const book = new LogBook().add("CollectionCreated", FACTORY.toUpperCase().replace("0X", "0x") as Address, {
      collection: COLLECTION.toUpperCase().replace("0X", "0x") as Address,
      owner: ALICE,
      name: "Cards",
      uri: "",
      metadata: "0x",
    });
    expect([...fold(book).collections.keys()]).toEqual([COLLECTION]);
  });
});
