import { stringToHex, zeroAddress } from "viem";
import { expect, it } from "vitest";
import { applyLogs } from "../../src/indexer/apply.ts";
import { emptyModels } from "../../src/indexer/models.ts";
import { encodeItemDescription } from "../../src/metadata/codec.ts";
import { itemMetadata } from "../../src/views/item-metadata.ts";
import { ALICE, chainFacts, COLLECTION, createCollection, LogBook } from "../indexer/logs.ts";

const sword = encodeItemDescription({
  name: "Sword",
  description: "sharp",
  imageUrl: "https://img/sword.png",
  fileType: "image/png",
  properties: [{ name: "power", value: "9", static: true }],
  isConsumable: false,
});

/** A stackable item (token 1), a non-stackable one of three copies (tokens 2-4), and one nobody described (token 5). */
function world(description = sword) {
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
    )
    .add(
      "ItemDescribed",
      COLLECTION,
      { firstTokenId: 1n, count: 1n, stackable: true, metadata: description },
      { sameBlock: true },
    );
  for (const tokenId of [2n, 3n, 4n])
    book.add(
      "ItemCreated",
      COLLECTION,
      { tokenId, creator: ALICE, maxSupply: 1n, initialSupply: 1n, royaltyPerMille: 25n },
      { sameBlock: tokenId > 2n },
    );
  book.add(
    "ItemDescribed",
    COLLECTION,
    { firstTokenId: 2n, count: 3n, stackable: false, metadata: description },
    { sameBlock: true },
  );
  book.add("ItemCreated", COLLECTION, {
    tokenId: 5n,
    creator: ALICE,
    maxSupply: 1n,
    initialSupply: 1n,
    royaltyPerMille: 0n,
  });
  const models = emptyModels(chainFacts());
  applyLogs(models, book.logs, book.blockTimes());
  return models;
}

it("an item's metadata: the description its creation carried, maximum supply, royalty and kind from the chain", () => {
  expect(itemMetadata(world(), COLLECTION, 1n)).toEqual({
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
  const models = world();
  for (const tokenId of [2n, 3n, 4n])
    expect(itemMetadata(models, COLLECTION, tokenId)).toMatchObject({
      isStackable: false,
      maximumSupply: 3,
      royaltyFee: 25,
    });
});

it("nothing for an item the chain does not know, one its creation did not describe, or one described by bytes that are not an item's metadata", () => {
  const models = world();
  expect(itemMetadata(models, COLLECTION, 6n)).toBeUndefined();
  expect(itemMetadata(models, COLLECTION, 5n)).toBeUndefined();
  for (const bytes of [stringToHex("not json"), stringToHex('{"description":"no name"}'), stringToHex("[1]"), "0x"])
    expect(itemMetadata(world(bytes as `0x${string}`), COLLECTION, 1n)).toBeUndefined();
});

it("a description a script wrote by hand: missing fields take their defaults, unknown ones are dropped", () => {
  const models = world(stringToHex('{"name":"Bare","rarity":"legendary"}'));
  expect(itemMetadata(models, COLLECTION, 1n)).toEqual({
    name: "Bare",
    description: "",
    image: "",
    fileType: "image/png",
    attributes: [],
    isStackable: true,
    isConsumable: false,
    maximumSupply: 7,
    royaltyFee: 40,
  });
});
