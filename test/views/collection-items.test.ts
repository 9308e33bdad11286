import { expect, it } from "vitest";
import { collectionItems } from "../../src/views/collection-items.ts";
import { COLLECTION, OTHER_COLLECTION } from "../indexer/logs.ts";
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
