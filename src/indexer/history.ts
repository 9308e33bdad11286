import { formatUnits, zeroAddress, type Address } from "viem";
import type { ItemEvent, MarketEvent, TransferEvent } from "../schemas/item-event.ts";
import { itemKey, itemRef, type ChainModels, type LogPosition } from "./models.ts";

export function lower(address: string): Address {
  return address.toLowerCase() as Address;
}

export function appendHistory(models: ChainModels, collection: Address, tokenId: bigint, event: ItemEvent): void {
  const key = itemKey(collection, tokenId);
  const events = models.history.get(key);
  if (events) events.push(event);
  else models.history.set(key, [event]);
}

/** A transfer as the API writes it; the id is `<Event>-<blockNumber>-<logIndex>`. */
export function transferEvent(
  models: ChainModels,
  event: TransferEvent["event"],
  move: { tokenId: bigint; from: Address; to: Address; amount: bigint },
  at: LogPosition,
): TransferEvent {
  return {
    id: `${event}-${at.blockNumber}-${at.logIndex}`,
    amount: move.amount.toString(),
    blockNumber: at.blockNumber,
    chainId: models.facts.chainId,
    event,
    from: move.from,
    itemCollection: at.address,
    itemRef: itemRef(models.facts.chainId, at.address, move.tokenId),
    timestamp: at.timestamp,
    to: move.to,
    tokenId: Number(move.tokenId),
    transactionHash: at.transactionHash,
  };
}

export interface MarketArgs {
  listingId: bigint;
  collection: Address;
  tokenId: bigint;
  amount: bigint;
  price: bigint;
  currency: Address;
}

/**
 * A marketplace event as the API writes it: id `<Event>-<listingId>-<txHash>-<logIndex>`,
 * the price in whole currency units, the currency's USD price and, for a sale, its USD worth.
 */
export function marketEvent(
  models: ChainModels,
  event: MarketEvent["event"],
  args: MarketArgs,
  parties: { from: Address; to: Address | "" },
  at: LogPosition,
): MarketEvent {
  const currency = lower(args.currency);
  const { decimals, usdPrice } = models.facts.currencies.get(currency) ?? { decimals: 18, usdPrice: 0 };
  const price = Number(formatUnits(args.price, decimals));
  const collection = lower(args.collection);
  return {
    id: `${event}-${args.listingId}-${at.transactionHash}-${at.logIndex}`,
    amount: args.amount.toString(),
    blockNumber: at.blockNumber,
    chainId: models.facts.chainId,
    currency,
    currencyPrice: usdPrice,
    event,
    from: parties.from,
    itemCollection: collection,
    itemRef: itemRef(models.facts.chainId, collection, args.tokenId),
    price,
    timestamp: at.timestamp,
    to: parties.to,
    tokenId: Number(args.tokenId),
    transactionHash: at.transactionHash,
    worth: event === "Swapped" ? usd(price * Number(args.amount) * usdPrice) : 0,
  };
}

function usd(value: number): number {
  return Math.round(value * 100) / 100;
}

export function moveBalance(models: ChainModels, collection: Address, tokenId: bigint, from: Address, to: Address, amount: bigint): void {
  const key = itemKey(collection, tokenId);
  let holders = models.balances.get(key);
  if (!holders) models.balances.set(key, (holders = new Map()));
  if (from !== zeroAddress) setBalance(holders, from, (holders.get(from) ?? 0n) - amount);
  if (to !== zeroAddress) setBalance(holders, to, (holders.get(to) ?? 0n) + amount);
}

function setBalance(holders: Map<Address, bigint>, holder: Address, balance: bigint): void {
  if (balance === 0n) holders.delete(holder);
  else holders.set(holder, balance);
}
