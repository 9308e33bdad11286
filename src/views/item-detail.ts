import type { Address } from "viem";
import { itemRef } from "../core/formats.ts";
import { itemKey, type ReadModels, type MarketFact } from "../indexer/models.ts";
import type { CollectionItem } from "../schemas/collection-reads.ts";
import { itemDescription } from "./descriptions.ts";
import { cents, itemEvent } from "./item-event.ts";
import type { MarketEvent } from "../schemas/item-event.ts";

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
    .filter(({ balance, listed: inListings }) => balance + inListings > 0n)
    .sort((a, b) => Number(b.balance + b.listed - (a.balance + a.listed)) || (a.address < b.address ? -1 : 1))
    .map(({ address, balance, listed: inListings }) => ({
      address,
      balance: String(balance),
      listed: String(inListings),
    }));

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
