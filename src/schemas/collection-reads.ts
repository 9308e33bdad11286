import { Type, type Static } from "@sinclair/typebox";
import { Address, ChainId, Closed, ItemRef, Named, SafeInteger } from "./common.ts";
import { Property } from "./item.ts";

// What the control API reads out of a collection for the dashboard: the API has no list of a
// collection's items, nor an item's holders, open listings or sale prices, nor volume per day.

/** Tokens, as a decimal string: an amount may pass 2^53. */
const Amount = (description: string) => Type.String({ pattern: "^[0-9]+$", description });
const ofCollection = { chainId: ChainId, collectionAddress: Address };

export const CollectionItems = Named("CollectionItems", {
  ...ofCollection,
  items: Type.Array(
    Closed({
      tokenId: Type.Integer(SafeInteger),
      name: Type.String({ description: "from the item's metadata; empty if the chain alone made it" }),
      image: Type.String({ description: "the item's image URL from its metadata; may be empty" }),
      supply: Amount("tokens held (escrowed ones included)"),
      maxSupply: Amount("the most that may exist"),
      holders: Type.Integer(SafeInteger),
      events: Type.Integer({ ...SafeInteger, description: "entries in its history" }),
    }),
  ),
});

export const CollectionItem = Named("CollectionItem", {
  ...ofCollection,
  tokenId: Type.Integer(SafeInteger),
  itemRef: ItemRef,
  name: Type.String({ description: "empty if the chain alone made the item (no metadata)" }),
  description: Type.String(),
  image: Type.String(),
  properties: Type.Array(Property),
  isStackable: Type.Boolean(),
  isConsumable: Type.Boolean(),
  royaltyFee: Type.Integer({ minimum: 0, description: "per mille, as the chain fixed it" }),
  supply: Amount("tokens that exist (escrowed ones included)"),
  maxSupply: Amount("the most that may exist"),
  holders: Type.Array(
    Closed({
      address: Address,
      balance: Amount("tokens in its wallet"),
      listed: Amount("its tokens in open listings (in the marketplace's escrow)"),
    }),
    { description: "every holder, the largest first; escrowed tokens count for their seller" },
  ),
  listings: Type.Array(
    Closed({
      listingId: Amount("the marketplace's listing id"),
      seller: Address,
      amount: Amount("tokens still for sale"),
      price: Type.Number({ description: "per item, in whole units of the currency" }),
      currency: Address,
      usdPrice: Type.Number({ description: "per item, in USD" }),
    }),
    { description: "open listings, the cheapest (in USD) first" },
  ),
  sales: Type.Array(
    Closed({
      timestamp: Type.Integer({ ...SafeInteger, description: "unix seconds" }),
      seller: Address,
      buyer: Address,
      amount: Amount("tokens sold"),
      price: Type.Number({ description: "per item, in whole units of the currency" }),
      currency: Address,
      usdPrice: Type.Number({ description: "per item, in USD" }),
    }),
    { description: "every sale, oldest first" },
  ),
});
export type CollectionItem = Static<typeof CollectionItem>;

export const CollectionVolume = Named("CollectionVolume", {
  ...ofCollection,
  days: Type.Array(
    Closed({
      day: Type.String({ format: "date", description: "a UTC day" }),
      volume: Type.Number({ description: "USD worth of the day's sales" }),
      sales: Type.Integer(SafeInteger),
    }),
    { description: "every UTC day from the first sale's to the chain head's, days without sales included" },
  ),
});
export type CollectionVolume = Static<typeof CollectionVolume>;
