import { stringToHex, zeroAddress } from "viem";
import { expect, it } from "vitest";
import { applyLogs } from "../../../src/indexer/apply.ts";
import { emptyModels, itemKey } from "../../../src/indexer/models.ts";
import { ALICE, chainFacts, COLLECTION, createCollection, LogBook } from "../logs.ts";

it("an ItemDescribed of a token the collection never created describes nothing, and does not throw", () => {
  const book = createCollection(new LogBook())
    .add("ItemCreated", COLLECTION, {
      tokenId: 1n,
      creator: ALICE,
      maxSupply: 1n,
      initialSupply: 1n,
      royaltyPerMille: 0n,
    })
    .add(
      "TransferSingle",
      COLLECTION,
      { operator: ALICE, from: zeroAddress, to: ALICE, id: 1n, value: 1n },
      { sameBlock: true },
    )
    .add(
      "ItemDescribed",
      COLLECTION,
      { firstTokenId: 2n, count: 1n, stackable: true, metadata: stringToHex('{"name":"x"}') },
      { sameBlock: true },
    );
  const models = emptyModels(chainFacts());
  expect(() => applyLogs(models, book.logs, book.blockTimes())).not.toThrow();
  expect(models.items.get(itemKey(COLLECTION, 1n))?.creation.description).toBeUndefined();
  expect(models.items.has(itemKey(COLLECTION, 2n))).toBe(false);
});
