import type { Address } from "viem";
import type { ArgsOf, IndexedEventName } from "./log-source.ts";
import {
  countHolder,
  recordActivity,
  type ChainModels,
  type LogPosition,
  type MarketFact,
  type MarketKind,
} from "./models.ts";
import { lowerAddress } from "../core/formats.ts";

// The marketplace's events, one reducer each. Escrowed amounts are tracked per
// listing so listed tokens keep counting as their seller's; every event is an
// activity fact of the item it concerns.

/** How a followed event changes the models; `address`: the contract that emitted the log. */
export type Reducer<Name extends IndexedEventName, Fold> = (
  models: ChainModels,
  args: ArgsOf<Name>,
  at: LogPosition,
  address: Address,
) => Fold;
type MarketReducer<Name extends MarketKind> = Reducer<Name, MarketFact | undefined>;

/** A marketplace event's reducer: the fact of the item it concerns, once `change` moved its listing. */
function market<Name extends MarketKind>(
  kind: Name,
  change: (models: ChainModels, args: ArgsOf<Name>, fact: MarketFact) => void = () => {},
): MarketReducer<Name> {
  return (models, args, at, address) => {
    if (address !== models.facts.marketplace || !models.collections.has(lowerAddress(args.collection))) return;
    // Every marketplace event tells its listing, the seller, the item, the amount and the price.
    const fact: MarketFact = {
      kind,
      ...at,
      collection: lowerAddress(args.collection),
      tokenId: args.tokenId,
      from: lowerAddress(args.seller),
      to: "buyer" in args ? lowerAddress(args.buyer) : "",
      amount: args.amount,
      listingId: args.listingId,
      price: args.price,
      currency: lowerAddress(args.currency),
    };
    change(models, args, fact);
    return recordActivity(models, fact);
  };
}

export const MARKET_REDUCERS: { [Name in MarketKind]: MarketReducer<Name> } = {
  /** A listing id opened again replaces what it held. */
  ItemListed: market("ItemListed", (models, args) => {
    const listing = {
      seller: lowerAddress(args.seller),
      collection: lowerAddress(args.collection),
      amount: args.amount,
    };
    closeListing(models, args.listingId);
    models.listings.set(args.listingId, listing);
    countHolder(models, listing.collection, listing.seller, 1);
  }),
  ItemDelisted: market("ItemDelisted", (models, args) => closeListing(models, args.listingId)),
  ItemPriceUpdated: market("ItemPriceUpdated"),
  ItemAdded: market("ItemAdded", (models, args) => changeEscrow(models, args.listingId, args.amount)),
  ItemRemoved: market("ItemRemoved", (models, args) => changeEscrow(models, args.listingId, -args.amount)),
  /** A sale: escrow shrinks, and the sale joins its collection's sales (volumes are derived from them). */
  Swapped: market("Swapped", (models, args, sale) => {
    changeEscrow(models, args.listingId, -args.amount);
    const sales = models.sales.get(sale.collection);
    if (sales) sales.push(sale);
    else models.sales.set(sale.collection, [sale]);
  }),
};

function changeEscrow(models: ChainModels, listingId: bigint, change: bigint): void {
  const listing = models.listings.get(listingId);
  if (!listing) return;
  listing.amount += change;
  if (listing.amount <= 0n) closeListing(models, listingId);
}

function closeListing(models: ChainModels, listingId: bigint): void {
  const listing = models.listings.get(listingId);
  if (!listing) return;
  models.listings.delete(listingId);
  countHolder(models, listing.collection, listing.seller, -1);
}
