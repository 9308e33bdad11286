import { stringToHex } from "viem";
import { expect, it } from "vitest";
import { itemKey } from "../../../src/indexer/models.ts";
import { COLLECTION, createCollection, fold, itemCreated, LogBook } from "../logs.ts";

it("an ItemDescribed of a token the collection never created describes nothing, and does not throw", () => {
  const book = createCollection(new LogBook())
    .mint(COLLECTION, itemCreated(1n))
    .add(
      "ItemDescribed",
      COLLECTION,
      { firstTokenId: 2n, count: 1n, stackable: true, metadata: stringToHex('{"name":"x"}') },
      { sameBlock: true },
    );
  const models = fold(book);
  expect(models.items.get(itemKey(COLLECTION, 1n))?.creation.description).toBeUndefined();
  expect(models.items.has(itemKey(COLLECTION, 2n))).toBe(false);
});
