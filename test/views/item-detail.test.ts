import { zeroAddress } from "viem";
import { describe, expect, it } from "vitest";
import { itemDetail } from "../../src/views/collection-reads.ts";
import { ALICE, BOB, CAROL, COLLECTION, OTHER_COLLECTION, STABLECOIN } from "../indexer/logs.ts";
import { DAVE, DAY_BLOCKS, marketWorld, SWORD, timeOf } from "./market-world.ts";

describe("an item whole, for the dashboard's item page", () => {
  it("answers its metadata, holders (escrow counting for the seller), open listings at their latest price, and every sale", () => {
    expect(itemDetail(marketWorld().models, COLLECTION, 1n)).toEqual({
      chainId: 56,
      collectionAddress: COLLECTION,
      tokenId: 1,
      itemRef: `56-${COLLECTION}-1`,
      name: "Sword",
      description: "sharp",
      image: "https://img/sword.png",
      properties: SWORD.properties,
      isStackable: true,
      isConsumable: true,
      royaltyFee: 50,
      supply: "6",
      maxSupply: "10",
      // Most held first (what it holds and has listed), ties by address; Bob sold his, the marketplace never holds.
      holders: [
        { address: ALICE, balance: "1", listed: "3" },
        { address: CAROL, balance: "0", listed: "1" },
        { address: DAVE, balance: "1", listed: "0" },
      ],
      // Cheapest first in USD, ties by listing id; listing 2 sold out, listing 3 was delisted.
      listings: [
        { listingId: "4", seller: CAROL, amount: "1", price: 1, currency: STABLECOIN, usdPrice: 1 },
        { listingId: "5", seller: ALICE, amount: "1", price: 1, currency: STABLECOIN, usdPrice: 1 },
        { listingId: "1", seller: ALICE, amount: "2", price: 12, currency: zeroAddress, usdPrice: 7200 },
      ],
      sales: [
        {
          timestamp: timeOf(7),
          seller: ALICE,
          buyer: CAROL,
          amount: "1",
          price: 12,
          currency: zeroAddress,
          usdPrice: 7200,
        },
        {
          timestamp: timeOf(DAY_BLOCKS + 30),
          seller: BOB,
          buyer: DAVE,
          amount: "1",
          price: 5,
          currency: STABLECOIN,
          usdPrice: 5,
        },
      ],
    });
  });

  it("answers an item nobody described with empty metadata, stackable, and one that is not stackable as such", () => {
    const { models } = marketWorld();
    expect(itemDetail(models, COLLECTION, 2n)).toEqual({
      chainId: 56,
      collectionAddress: COLLECTION,
      tokenId: 2,
      itemRef: `56-${COLLECTION}-2`,
      name: "",
      description: "",
      image: "",
      properties: [],
      isStackable: true,
      isConsumable: false,
      royaltyFee: 0,
      supply: "1",
      maxSupply: "1",
      holders: [{ address: BOB, balance: "1", listed: "0" }],
      listings: [],
      sales: [],
    });
    expect(itemDetail(models, COLLECTION, 4n)).toMatchObject({
      name: "Shield",
      isStackable: false,
      isConsumable: true,
    });
  });

  it("is undefined for a token the collection does not have", () => {
    const { models } = marketWorld();
    expect(itemDetail(models, COLLECTION, 3n)).toBeUndefined();
    expect(itemDetail(models, OTHER_COLLECTION, 1n)).toBeUndefined();
    expect(itemDetail(models, OTHER_COLLECTION, 3n)).toMatchObject({ tokenId: 3, supply: "2" });
  });
});
