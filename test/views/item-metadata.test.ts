import { zeroAddress } from "viem";
import { expect, it } from "vitest";
import { applyLogs } from "../../src/indexer/apply.ts";
import { emptyModels, itemKey } from "../../src/indexer/models.ts";
import { MetadataStore } from "../../src/metadata/store.ts";
import type { StoredItem } from "../../src/schemas/mint.ts";
import { itemMetadata } from "../../src/views/item-metadata.ts";
import { ALICE, chainFacts, COLLECTION, createCollection, LogBook } from "../indexer/logs.ts";

// The store's copies of maximumSupply and royaltyFee are deliberately wrong: the view must take the chain's.
const stored = (isStackable: boolean): StoredItem => ({
  name: "Sword",
  description: "sharp",
  imageUrl: "https://img/sword.png",
  fileType: "image/png",
  properties: [{ name: "power", value: "9", static: true }],
  isStackable,
  isConsumable: false,
  initialSupply: 3,
  maximumSupply: 999,
  royaltyFee: 999,
});

function world() {
  const book = createCollection(new LogBook())
    .add("ItemCreated", COLLECTION, {
      tokenId: 1n,
      creator: ALICE,
      maxSupply: 7n,
      initialSupply: 3n,
      royaltyPerMille: 40n,
    })
    .add(
      "TransferSingle",
      COLLECTION,
      { operator: ALICE, from: zeroAddress, to: ALICE, id: 1n, value: 3n },
      { sameBlock: true },
    );
  for (const tokenId of [2n, 3n, 4n])
    book.add(
      "ItemCreated",
      COLLECTION,
      { tokenId, creator: ALICE, maxSupply: 1n, initialSupply: 1n, royaltyPerMille: 25n },
      { sameBlock: tokenId > 2n },
    );
  const models = emptyModels(chainFacts());
  applyLogs(models, book.logs, book.blockTimes());
  const store = new MetadataStore();
  const creationOf = (tokenId: bigint) => models.items.get(itemKey(COLLECTION, tokenId))!.creation.transactionHash;
  store.setItem(56, creationOf(1n), stored(true));
  for (const tokenId of [2n, 3n, 4n]) store.setItem(56, creationOf(tokenId), stored(false));
  return { models, store };
}

it("an item's metadata: the description from the store, maximum supply and royalty from the chain", () => {
  const { models, store } = world();
  expect(itemMetadata(models, store, COLLECTION, 1n)).toEqual({
    name: "Sword",
    description: "sharp",
    image: "https://img/sword.png",
    fileType: "image/png",
    attributes: [{ trait_type: "power", value: "9", static: true }],
    isStackable: true,
    isConsumable: false,
    maximumSupply: 7,
    royaltyFee: 40,
  });
});

it("a non-stackable item's maximum supply is the copies its transaction created", () => {
  const { models, store } = world();
  for (const tokenId of [2n, 3n, 4n])
    expect(itemMetadata(models, store, COLLECTION, tokenId)).toMatchObject({ maximumSupply: 3, royaltyFee: 25 });
});

it("nothing for an item the chain or the store does not know", () => {
  const { models, store } = world();
  expect(itemMetadata(models, store, COLLECTION, 5n)).toBeUndefined();
  expect(itemMetadata(models, new MetadataStore(), COLLECTION, 1n)).toBeUndefined();
});
