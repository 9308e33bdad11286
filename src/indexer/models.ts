import type { Address, Hex } from "viem";
import type { IndexedEventName } from "./decode.ts";

/** What a chain's logs tell about one collection. */
export interface CollectionRecord {
  chainId: number;
  address: Address;
  owner: Address;
  name: string;
  uri: string;
  createdAt: number;
  /** The metadata its creating transaction carried (JSON text, "" if none), as the chain told it. */
  metadata: string;
}

/**
 * The token ids one transaction created in a collection: the copies of one non-stackable item, or one stackable item.
 */
export interface Creation {
  transactionHash: Hex;
  tokenIds: bigint[];
  /** What the creating transaction said of the item (ItemDescribed), if it said anything. */
  description?: ItemDescribed;
}

/** An item's description as the chain told it: the metadata (JSON text) and which kind of item it is. */
export interface ItemDescribed {
  stackable: boolean;
  metadata: string;
}

/** What the chain fixed when it created a token id. */
export interface ItemRecord {
  maxSupply: bigint;
  royaltyPerMille: number;
  creation: Creation;
}

/** Tokens in the marketplace's escrow; they still count as their seller's. */
export interface Listing {
  seller: Address;
  collection: Address;
  amount: bigint;
}

export interface Currency {
  decimals: number;
  usdPrice: number;
}

/** The fixed facts an indexer needs beside the logs. */
export interface ChainFacts {
  chainId: number;
  factory: Address;
  marketplace: Address;
  currencies: ReadonlyMap<Address, Currency>;
}

export type TransferKind = Extract<IndexedEventName, "TransferSingle" | "TransferBatch">;
export type MarketKind = Extract<
  IndexedEventName,
  "ItemListed" | "ItemDelisted" | "ItemPriceUpdated" | "ItemAdded" | "ItemRemoved" | "Swapped"
>;

/** Where a log sits on the chain, and when its block was made. */
export interface LogPosition {
  address: Address;
  blockNumber: number;
  logIndex: number;
  transactionHash: Hex;
  timestamp: number;
}

/** One thing that happened to an item, as its log said it. */
interface ActivityFact extends Omit<LogPosition, "address"> {
  collection: Address;
  tokenId: bigint;
  from: Address;
  amount: bigint;
}

/** A mint (from the zero address), burn (to it) or transfer; a batch gives one per token id it moved. */
export interface TransferFact extends ActivityFact {
  kind: TransferKind;
  to: Address;
}

/**
 * A marketplace event: `from` is the seller, `to` the buyer of a sale and "" otherwise; `price` is per item, in the
 * currency's smallest unit.
 */
export interface MarketFact extends ActivityFact {
  kind: MarketKind;
  to: Address | "";
  listingId: bigint;
  price: bigint;
  currency: Address;
}

export type Activity = TransferFact | MarketFact;

/** The read models of one chain, derived only from its logs. */
export interface ChainModels {
  facts: ChainFacts;
  /** Latest indexed block: volumes are measured against its time. */
  head: { blockNumber: number; timestamp: number };
  collections: Map<Address, CollectionRecord>;
  items: Map<string, ItemRecord>;
  /** Balances per item (key: itemKey), per holder. */
  balances: Map<string, Map<Address, bigint>>;
  listings: Map<bigint, Listing>;
  /**
   * Each collection's holders, kept as balances and listings change (so a read never scans every
   * balance): holder → how many of its nonzero balances and open listings there make it one.
   * Escrowed tokens count for their seller; the marketplace itself never holds.
   */
  holders: Map<Address, Map<Address, number>>;
  /** Each item's activity in chain order (oldest first). */
  activity: Map<string, Activity[]>;
  /** Each collection's sales (its Swapped facts, the same objects as in `activity`), in chain order. */
  sales: Map<Address, MarketFact[]>;
  /** Bumped whenever anything above changes, so derived views can be cached. */
  version: number;
}

/** What a read may see of the models: all of it, changed by nothing but the reducers. */
export type ReadModels = ReadOnly<ChainModels>;

export type ReadOnly<T> =
  T extends ReadonlyMap<infer K, infer V>
    ? ReadonlyMap<K, ReadOnly<V>>
    : T extends readonly (infer E)[]
      ? readonly ReadOnly<E>[]
      : T extends (...args: never[]) => unknown
        ? T
        : T extends object
          ? { readonly [P in keyof T]: ReadOnly<T[P]> }
          : T;

export function emptyModels(facts: ChainFacts): ChainModels {
  return {
    facts,
    head: { blockNumber: -1, timestamp: 0 },
    collections: new Map(),
    items: new Map(),
    balances: new Map(),
    listings: new Map(),
    holders: new Map(),
    activity: new Map(),
    sales: new Map(),
    version: 0,
  };
}

export function itemKey(collection: Address, tokenId: bigint): string {
  return `${collection}-${tokenId}`;
}
