import { zeroAddress } from "viem";
import { expect, it } from "vitest";
import { applyLogs } from "../../src/indexer/apply.ts";
import { emptyModels } from "../../src/indexer/models.ts";
import { collectionItems } from "../../src/views/collection-reads.ts";
import { ALICE, chainFacts, COLLECTION, createCollection, LogBook, OTHER_COLLECTION } from "../indexer/logs.ts";
import { marketWorld } from "./market-world.ts";

it("a collection's items by token id: name and image if described, supply held (escrow included), holders, events", () => {
  const { models } = marketWorld();
  expect(collectionItems(models, COLLECTION)).toEqual([
    // Held balances only: Alice, Dave, and the marketplace for what is in escrow (Carol's one is listed).
    { tokenId: 1, name: "Sword", image: "https://img/sword.png", supply: "6", maxSupply: "10", holders: 3, events: 19 },
    { tokenId: 2, name: "", image: "", supply: "1", maxSupply: "1", holders: 1, events: 1 },
    { tokenId: 4, name: "Shield", image: "https://img/sword.png", supply: "1", maxSupply: "1", holders: 1, events: 1 },
  ]);
  expect(collectionItems(models, OTHER_COLLECTION)).toEqual([
    { tokenId: 3, name: "", image: "", supply: "2", maxSupply: "2", holders: 1, events: 1 },
  ]);
});

it("none for a collection the chain does not have", () => {
  expect(collectionItems(marketWorld().models, "0xc011000000000000000000000000000000000099")).toEqual([]);
});

it("by token id whatever the order of creation, and an item nobody holds and nothing happened to yet", () => {
  const created = (tokenId: bigint) => ({
    tokenId,
    creator: ALICE,
    maxSupply: 3n,
    initialSupply: 1n,
    royaltyPerMille: 0n,
  });
  const book = createCollection(new LogBook())
    .add("ItemCreated", COLLECTION, created(12n))
    .add(
      "TransferSingle",
      COLLECTION,
      { operator: ALICE, from: zeroAddress, to: ALICE, id: 12n, value: 1n },
      { sameBlock: true },
    )
    .add("ItemCreated", COLLECTION, created(9n))
    .add("ItemCreated", COLLECTION, created(10n))
    .add(
      "TransferSingle",
      COLLECTION,
      { operator: ALICE, from: zeroAddress, to: ALICE, id: 10n, value: 1n },
      { sameBlock: true },
    );
  const models = emptyModels(chainFacts());
  applyLogs(models, book.logs, book.blockTimes());
  expect(collectionItems(models, COLLECTION)).toEqual([
    { tokenId: 9, name: "", image: "", supply: "0", maxSupply: "3", holders: 0, events: 0 },
    { tokenId: 10, name: "", image: "", supply: "1", maxSupply: "3", holders: 1, events: 1 },
    { tokenId: 12, name: "", image: "", supply: "1", maxSupply: "3", holders: 1, events: 1 },
  ]);
});
