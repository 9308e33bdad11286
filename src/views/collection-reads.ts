import type { Static } from "@sinclair/typebox";
import type { Address } from "viem";
import { type ReadModels, itemKey, type MarketFact } from "../indexer/models.ts";
import type { CollectionItems, CollectionVolume, CollectionItem } from "../schemas/collection-reads.ts";
import { itemDescription } from "./descriptions.ts";
import { cents, saleWorth, itemEvent } from "./item-event.ts";
import { itemRef } from "../core/formats.ts";
import type { MarketEvent } from "../schemas/item-event.ts";

// The dashboard's reads of one collection (the control API's): its items, one item whole, its volume per day.

/** One item of a collection as the dashboard lists it: what the chain says, its name and image from its description. */
type CollectionItemSummary = Static<typeof CollectionItems>["items"][number];

/**
 * Every item of a collection, by token id (held balances only; tokens in a listing's escrow count for the marketplace).
 */
export function collectionItems(models: ReadModels, collection: Address): CollectionItemSummary[] {
  const items: CollectionItemSummary[] = [];
  const prefix = `${collection}-`;
  for (const [key, record] of models.items) {
    if (!key.startsWith(prefix)) continue;
    const balances = [...(models.balances.get(key)?.values() ?? [])].filter((amount) => amount > 0n);
    const described = itemDescription(record.creation);
    items.push({
      tokenId: Number(key.slice(prefix.length)),
      name: described?.name ?? "",
      image: described?.imageUrl ?? "",
      supply: String(balances.reduce((sum, amount) => sum + amount, 0n)),
      maxSupply: String(record.maxSupply),
      holders: balances.length,
      events: models.activity.get(key)?.length ?? 0,
    });
  }
  return items.sort((a, b) => a.tokenId - b.tokenId);
}

const DAY = 86_400;

/** The USD worth and count of a collection's sales per UTC day, every day from the first sale's to the head's. */
export function collectionVolume(models: ReadModels, collection: Address): CollectionVolume["days"] {
  const sales = models.sales.get(collection) ?? [];
  if (sales.length === 0) return [];
  const first = Math.floor(sales[0]!.timestamp / DAY);
  const last = Math.max(Math.floor(models.head.timestamp / DAY), Math.floor(sales.at(-1)!.timestamp / DAY));
  const days = Array.from({ length: last - first + 1 }, (_, i) => ({
    day: new Date((first + i) * DAY * 1000).toISOString().slice(0, 10),
    volume: 0,
    sales: 0,
  }));
  for (const sale of sales) {
    const day = days[Math.floor(sale.timestamp / DAY) - first]!;
    day.volume += saleWorth(models.facts, sale);
    day.sales += 1;
  }
  for (const day of days) day.volume = cents(day.volume);
  return days;
}

/**
 * One item whole, for the dashboard's item page: its metadata, its holders (escrowed tokens
 * counting for their seller), its open listings at their latest price, and every sale.
 * Undefined when the collection has no such token.
 */
export function itemDetail(models: ReadModels, collection: Address, tokenId: bigint): CollectionItem | undefined {
  const key = itemKey(collection, tokenId);
  const record = models.items.get(key);
  if (!record) return undefined;
  const { facts } = models;
  const stored = itemDescription(record.creation);
  const market = (models.activity.get(key) ?? []).filter((fact): fact is MarketFact => "listingId" in fact);
  const priced = (fact: MarketFact) => {
    const { price, currency, currencyPrice } = itemEvent(facts, fact) as MarketEvent;
    return { price, currency, usdPrice: cents(price * currencyPrice) };
  };

  const latest = new Map<bigint, MarketFact>();
  for (const fact of market)
    if (fact.kind === "ItemListed" || fact.kind === "ItemPriceUpdated") latest.set(fact.listingId, fact);
  const listings = [...latest]
    .map(([listingId, fact]) => ({ listingId, fact, open: models.listings.get(listingId) }))
    .filter(({ open }) => open !== undefined && open.amount > 0n)
    .map(({ listingId, fact, open }) => ({
      listingId: String(listingId),
      seller: open!.seller,
      amount: String(open!.amount),
      ...priced(fact),
    }))
    .sort((a, b) => a.usdPrice - b.usdPrice || Number(BigInt(a.listingId) - BigInt(b.listingId)));

  const listed = new Map<Address, bigint>();
  for (const { seller, amount } of listings) listed.set(seller, (listed.get(seller) ?? 0n) + BigInt(amount));
  const balances = models.balances.get(key) ?? new Map<Address, bigint>();
  const holderAddresses = new Set([...balances.keys(), ...listed.keys()].filter((a) => a !== facts.marketplace));
  const holders = [...holderAddresses]
    .map((address) => ({ address, balance: balances.get(address) ?? 0n, listed: listed.get(address) ?? 0n }))
    .filter((holder) => holder.balance + holder.listed > 0n)
    .sort((a, b) => Number(b.balance + b.listed - (a.balance + a.listed)) || (a.address < b.address ? -1 : 1))
    .map(({ address, balance, listed: held }) => ({ address, balance: String(balance), listed: String(held) }));

  const supply = [...balances.values()].reduce((sum, amount) => sum + amount, 0n);
  return {
    chainId: facts.chainId,
    collectionAddress: collection,
    tokenId: Number(tokenId),
    itemRef: itemRef(facts.chainId, collection, tokenId),
    name: stored?.name ?? "",
    description: stored?.description ?? "",
    image: stored?.imageUrl ?? "",
    properties: stored?.properties ?? [],
    isStackable: record.creation.description?.stackable ?? true,
    isConsumable: stored?.isConsumable ?? false,
    royaltyFee: record.royaltyPerMille,
    supply: String(supply),
    maxSupply: String(record.maxSupply),
    holders,
    listings,
    sales: market
      .filter((fact) => fact.kind === "Swapped")
      .map((fact) => ({
        timestamp: fact.timestamp,
        seller: fact.from,
        buyer: fact.to as Address,
        amount: String(fact.amount),
        ...priced(fact),
      })),
  };
}
