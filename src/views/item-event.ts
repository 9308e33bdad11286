import { formatUnits, type Address } from "viem";
import { itemRef, marketEventId, transferEventId } from "../core/formats.ts";
import {
  type Activity,
  type ChainFacts,
  type MarketFact,
  type ReadOnly,
  type TransferFact,
  itemKey,
  type ReadModels,
} from "../indexer/models.ts";
import type { ItemEvent, MarketEvent, TransferEvent } from "../schemas/item-event.ts";
import { madeOf } from "./made.ts";

/** An activity fact as the API writes it, made once and frozen: facts never change, and pages reuse the same object. */
export function itemEvent(facts: ReadOnly<ChainFacts>, activity: Activity): ItemEvent {
  const make = () => ("listingId" in activity ? marketEvent(facts, activity) : transferEvent(facts, activity));
  return madeOf(activity, () => Object.freeze(make()));
}

/** A sale's USD worth, as its event answers it. */
export function saleWorth(facts: ReadOnly<ChainFacts>, sale: MarketFact): number {
  return (itemEvent(facts, sale) as MarketEvent).worth;
}

/** A transfer; its id is `<Event>-<blockNumber>-<logIndex>`. */
function transferEvent(facts: ReadOnly<ChainFacts>, transfer: TransferFact): TransferEvent {
  return {
    id: transferEventId(transfer.kind, transfer.blockNumber, transfer.logIndex),
    amount: transfer.amount.toString(),
    blockNumber: transfer.blockNumber,
    chainId: facts.chainId,
    event: transfer.kind,
    from: transfer.from,
    itemCollection: transfer.collection,
    itemRef: itemRef(facts.chainId, transfer.collection, transfer.tokenId),
    timestamp: transfer.timestamp,
    to: transfer.to,
    tokenId: Number(transfer.tokenId),
    transactionHash: transfer.transactionHash,
  };
}

/**
 * A marketplace event: id `<Event>-<listingId>-<txHash>-<logIndex>`, the price in whole
 * currency units, the currency's USD price and, for a sale, its USD worth rounded to cents.
 */
function marketEvent(facts: ReadOnly<ChainFacts>, fact: MarketFact): MarketEvent {
  const { decimals, usdPrice } = facts.currencies.get(fact.currency) ?? { decimals: 18, usdPrice: 0 };
  const price = Number(formatUnits(fact.price, decimals));
  return {
    id: marketEventId(fact.kind, fact.listingId, fact.transactionHash, fact.logIndex),
    amount: fact.amount.toString(),
    blockNumber: fact.blockNumber,
    chainId: facts.chainId,
    currency: fact.currency,
    currencyPrice: usdPrice,
    event: fact.kind,
    from: fact.from,
    itemCollection: fact.collection,
    itemRef: itemRef(facts.chainId, fact.collection, fact.tokenId),
    price,
    timestamp: fact.timestamp,
    to: fact.to,
    tokenId: Number(fact.tokenId),
    transactionHash: fact.transactionHash,
    worth: fact.kind === "Swapped" ? cents(price * Number(fact.amount) * usdPrice) : 0,
  };
}

/** USD rounded to cents, as worth and volumes are answered. */
export function cents(value: number): number {
  return Math.round(value * 100) / 100;
}

/** One page of an item's history, newest first; undefined when the chain has no such item. */
export function itemEventsPage(
  models: ReadModels,
  collection: Address,
  tokenId: bigint,
  { page, perPage }: { page: number; perPage: number },
): ItemEvent[] | undefined {
  const key = itemKey(collection, tokenId);
  const activity = models.activity.get(key);
  if (!activity) return models.items.has(key) ? [] : undefined;
  const newest = activity.length - 1 - (page - 1) * perPage;
  const events: ItemEvent[] = [];
  for (let i = newest; i >= 0 && i > newest - perPage; i--) events.push(itemEvent(models.facts, activity[i]!));
  return events;
}
