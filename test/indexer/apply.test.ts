import { zeroAddress, stringToHex } from "viem";
import { describe, expect, it } from "vitest";
import { advanceHead, applyLogs } from "../../src/indexer/apply.ts";
import { emptyModels, type Folded, itemKey } from "../../src/indexer/models.ts";
import {
  ALICE,
  BOB,
  chainFacts,
  COLLECTION,
  createCollection,
  fold,
  itemCreated,
  LogBook,
  market,
  MARKETPLACE,
  OTHER_COLLECTION,
} from "./logs.ts";

describe("applyLogs", () => {
  it("adds what the reducers folded in: collections, each fact of a batch, market facts; nothing for a creation or an unknown collection", () => {
    const book = createCollection(new LogBook())
      .add("ItemCreated", COLLECTION, itemCreated(1n, { initialSupply: 3n, maxSupply: 9n }))
      .add(
        "TransferBatch",
        COLLECTION,
        { operator: ALICE, from: zeroAddress, to: ALICE, ids: [1n, 2n], values: [2n, 1n] },
        { sameBlock: true },
      )
      .add("TransferBatch", OTHER_COLLECTION, { operator: BOB, from: zeroAddress, to: BOB, ids: [1n], values: [1n] })
      .add("TransferSingle", OTHER_COLLECTION, { operator: BOB, from: zeroAddress, to: BOB, id: 1n, value: 1n })
      .add("ItemListed", MARKETPLACE, market(1n, ALICE, 1n, 1n, 10n));
    const models = emptyModels(chainFacts());
    const folded: Folded = { collections: [], activity: [] };
    applyLogs(models, book.logs, book.blockTimes(), folded);
    expect(folded.collections).toEqual([...models.collections.values()]);
    expect(folded.activity.map((fact) => [fact.kind, fact.tokenId])).toEqual([
      ["TransferBatch", 1n],
      ["TransferBatch", 2n],
      ["ItemListed", 1n],
    ]);
    expect(fold(book)).toEqual(models);
  });
});

describe("advanceHead", () => {
  it("moves the head to the block and its time, and the version on", () => {
    const models = emptyModels(chainFacts());
    const version = models.version;
    advanceHead(models, { number: 12n, timestamp: 1_700_000_000n });
    expect(models.head).toEqual({ blockNumber: 12, timestamp: 1_700_000_000 });
    expect(models.version).toBe(version + 1);
    advanceHead(models, { number: 13n, timestamp: 1_700_000_060n });
    expect(models.version).toBe(version + 2);
  });
});

describe("item described", () => {
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
});
