import type { ArgsOf } from "../decode.ts";
import { appendHistory, lower, marketEvent, type MarketArgs } from "../history.ts";
import type { ChainModels, LogPosition } from "../models.ts";

// The marketplace's events, one reducer each. Escrowed amounts are tracked per
// listing so listed tokens keep counting as their seller's; history records
// every event on the item it concerns.

function concernsKnownCollection(models: ChainModels, args: MarketArgs, at: LogPosition): boolean {
  return at.address === models.facts.marketplace && models.collections.has(lower(args.collection));
}

function record(models: ChainModels, event: Parameters<typeof marketEvent>[1], args: MarketArgs & { seller: string }, at: LogPosition): void {
  const entry = marketEvent(models, event, args, { from: lower(args.seller), to: "" }, at);
  appendHistory(models, lower(args.collection), args.tokenId, entry);
}

export function itemListed(models: ChainModels, args: ArgsOf<"ItemListed">, at: LogPosition): void {
  if (!concernsKnownCollection(models, args, at)) return;
  const { seller, collection, tokenId, amount } = args;
  models.listings.set(args.listingId, { seller: lower(seller), collection: lower(collection), tokenId, amount });
  record(models, "ItemListed", args, at);
}

export function itemDelisted(models: ChainModels, args: ArgsOf<"ItemDelisted">, at: LogPosition): void {
  if (!concernsKnownCollection(models, args, at)) return;
  models.listings.delete(args.listingId);
  record(models, "ItemDelisted", args, at);
}

export function itemPriceUpdated(models: ChainModels, args: ArgsOf<"ItemPriceUpdated">, at: LogPosition): void {
  if (!concernsKnownCollection(models, args, at)) return;
  record(models, "ItemPriceUpdated", args, at);
}

export function itemAdded(models: ChainModels, args: ArgsOf<"ItemAdded">, at: LogPosition): void {
  if (!concernsKnownCollection(models, args, at)) return;
  changeEscrow(models, args.listingId, args.amount);
  record(models, "ItemAdded", args, at);
}

export function itemRemoved(models: ChainModels, args: ArgsOf<"ItemRemoved">, at: LogPosition): void {
  if (!concernsKnownCollection(models, args, at)) return;
  changeEscrow(models, args.listingId, -args.amount);
  record(models, "ItemRemoved", args, at);
}

/** A sale: escrow shrinks, the sale's USD worth counts toward the collection's volume. */
export function swapped(models: ChainModels, args: ArgsOf<"Swapped">, at: LogPosition): void {
  if (!concernsKnownCollection(models, args, at)) return;
  changeEscrow(models, args.listingId, -args.amount);
  const collection = lower(args.collection);
  const entry = marketEvent(models, "Swapped", args, { from: lower(args.seller), to: lower(args.buyer) }, at);
  appendHistory(models, collection, args.tokenId, entry);
  const sales = models.sales.get(collection);
  const sale = { timestamp: at.timestamp, worth: entry.worth };
  if (sales) sales.push(sale);
  else models.sales.set(collection, [sale]);
}

function changeEscrow(models: ChainModels, listingId: bigint, change: bigint): void {
  const listing = models.listings.get(listingId);
  if (!listing) return;
  listing.amount += change;
  if (listing.amount <= 0n) models.listings.delete(listingId);
}
