import { zeroAddress, type Address } from "viem";
import { describe, expect, it } from "vitest";
import { itemKey, type ChainModels } from "../../src/indexer/models.ts";
import { ALICE, BOB, CAROL, COLLECTION, fold, market, MARKETPLACE, mintedBook, OTHER_COLLECTION } from "./logs.ts";

const minted = () => mintedBook();

const escrow = (from: Address, value: bigint) => ({ operator: MARKETPLACE, from, to: MARKETPLACE, id: 1n, value });
const holdersOf = (models: ChainModels) => Object.fromEntries(models.holders.get(COLLECTION) ?? []);
const activityOf = (models: ChainModels) => models.activity.get(itemKey(COLLECTION, 1n)) ?? [];

describe("the marketplace's reducers", () => {
  it("record each event as the item's activity, under its own kind, with no buyer but for a sale", () => {
    const book = minted()
      .add("TransferSingle", COLLECTION, escrow(ALICE, 3n))
      .add("ItemListed", MARKETPLACE, market(1n, ALICE, 1n, 3n, 10n), { sameBlock: true })
      .add("ItemAdded", MARKETPLACE, market(1n, ALICE, 1n, 1n, 10n))
      .add("ItemRemoved", MARKETPLACE, market(1n, ALICE, 1n, 1n, 10n))
      .add("ItemPriceUpdated", MARKETPLACE, market(1n, ALICE, 1n, 3n, 20n))
      .add("Swapped", MARKETPLACE, { ...market(1n, ALICE, 1n, 1n, 20n), buyer: BOB })
      .add("ItemDelisted", MARKETPLACE, market(1n, ALICE, 1n, 2n, 20n));
    const market_ = activityOf(fold(book)).filter((fact) => "listingId" in fact);
    expect(market_.map((fact) => [fact.kind, fact.to, fact.amount])).toEqual([
      ["ItemListed", "", 3n],
      ["ItemAdded", "", 1n],
      ["ItemRemoved", "", 1n],
      ["ItemPriceUpdated", "", 3n],
      ["Swapped", BOB, 1n],
      ["ItemDelisted", "", 2n],
    ]);
  });

  it("ignore every event of a foreign marketplace, and of a collection the factory did not create", () => {
    const foreign: Address = "0xf0e1000000000000000000000000000000000009";
    const book = minted().add("ItemListed", MARKETPLACE, market(1n, ALICE, 1n, 2n, 10n));
    const before = fold(book);
    for (const emitter of [foreign, MARKETPLACE])
      for (const kind of ["ItemDelisted", "ItemPriceUpdated", "ItemAdded", "ItemRemoved", "ItemListed"] as const) {
        const collection = emitter === MARKETPLACE ? OTHER_COLLECTION : COLLECTION;
        const args = market(1n, ALICE, 1n, 1n, 10n, zeroAddress, collection);
        const after = fold(
          minted()
            .add("ItemListed", MARKETPLACE, market(1n, ALICE, 1n, 2n, 10n))
            .add(kind, emitter, args),
        );
        expect(after, `${kind} from ${emitter}`).toEqual(before);
      }
    const sold = fold(
      minted()
        .add("ItemListed", MARKETPLACE, market(1n, ALICE, 1n, 2n, 10n))
        .add("Swapped", foreign, { ...market(1n, ALICE, 1n, 1n, 10n), buyer: BOB }),
    );
    expect(sold).toEqual(before);
  });

  it("keep every sale of a collection, in chain order", () => {
    const models = fold(
      minted()
        .add("ItemListed", MARKETPLACE, market(1n, ALICE, 1n, 3n, 10n))
        .add("Swapped", MARKETPLACE, { ...market(1n, ALICE, 1n, 1n, 10n), buyer: BOB })
        .add("Swapped", MARKETPLACE, { ...market(1n, ALICE, 1n, 1n, 10n), buyer: CAROL }),
    );
    expect(models.sales.get(COLLECTION)?.map((sale) => sale.to)).toEqual([BOB, CAROL]);
    expect(models.listings.get(1n)?.amount).toBe(1n);
  });

  it("count a seller whose tokens are all in escrow as a holder while the listing is open, and not after", () => {
    const listed = minted()
      .add("TransferSingle", COLLECTION, escrow(ALICE, 5n))
      .add("ItemListed", MARKETPLACE, market(1n, ALICE, 1n, 5n, 10n), { sameBlock: true });
    expect(holdersOf(fold(listed))).toEqual({ [ALICE]: 1 });
    listed.add("ItemDelisted", MARKETPLACE, market(1n, ALICE, 1n, 5n, 10n));
    expect(holdersOf(fold(listed))).toEqual({});
    expect(fold(listed).listings.size).toBe(0);
  });

  it("count a seller with a balance and a listing once for each, and a listing listed again once", () => {
    const book = minted()
      .add("TransferSingle", COLLECTION, escrow(ALICE, 2n))
      .add("ItemListed", MARKETPLACE, market(1n, ALICE, 1n, 2n, 10n), { sameBlock: true });
    expect(holdersOf(fold(book))).toEqual({ [ALICE]: 2 });
    book.add("ItemListed", MARKETPLACE, market(1n, ALICE, 1n, 2n, 12n));
    expect(holdersOf(fold(book))).toEqual({ [ALICE]: 2 });
    book.add("ItemDelisted", MARKETPLACE, market(1n, ALICE, 1n, 2n, 12n));
    expect(holdersOf(fold(book))).toEqual({ [ALICE]: 1 });
  });

  it("change no escrow of a listing that is not open, and record the event all the same", () => {
    const book = minted()
      .add("ItemAdded", MARKETPLACE, market(4n, ALICE, 1n, 1n, 10n))
      .add("ItemRemoved", MARKETPLACE, market(4n, ALICE, 1n, 1n, 10n))
      .add("Swapped", MARKETPLACE, { ...market(4n, ALICE, 1n, 1n, 10n), buyer: BOB })
      .add("ItemDelisted", MARKETPLACE, market(4n, ALICE, 1n, 1n, 10n));
    const models = fold(book);
    expect(models.listings.size).toBe(0);
    expect(holdersOf(models)).toEqual({ [ALICE]: 1 });
    expect(activityOf(models).map((fact) => fact.kind)).toEqual([
      "TransferSingle",
      "ItemAdded",
      "ItemRemoved",
      "Swapped",
      "ItemDelisted",
    ]);
  });
});
