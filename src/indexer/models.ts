// The read models: facts of the chain's logs, how a reducer records one, what a catch-up changed (told to the
// observer), and what reads are answered from.
import type { Address, Hex } from "viem";

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
  /** What the creating transaction said of the item (ItemDescribed), if anything: its metadata (JSON text) and kind. */
  description?: { stackable: boolean; metadata: string };
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

// Each the name of the followed event the fact is folded from (log-source.ts, INDEXED_EVENTS).
export type TransferKind = "TransferSingle" | "TransferBatch";
export type MarketKind = "ItemListed" | "ItemDelisted" | "ItemPriceUpdated" | "ItemAdded" | "ItemRemoved" | "Swapped";

/** Where a log sits on the chain, and when its block was made (an activity fact keeps all of it). */
export interface LogPosition {
  blockNumber: number;
  logIndex: number;
  transactionHash: Hex;
  timestamp: number;
}

/** One thing that happened to an item, as its log said it. */
interface ActivityFact extends LogPosition {
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
  /** What the chain fixed when it created each token id (key: itemKey). */
  items: Map<string, { maxSupply: bigint; royaltyPerMille: number; creation: Creation }>;
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

/** One chain's read models, as of a sync just made. */
export interface ModelsRead {
  models: ReadModels;
}

/**
 * Where a collection address was found: on the chain asked about (`among` the chains looked at, the first holding it),
 * only on another one, or nowhere.
 */
export type CollectionLookup<Read extends ModelsRead = ModelsRead> =
  Found<Read> | { elsewhere: number } | { unknown: true };
type Found<Read> = { found: Read; among: Read[] };

/**
 * What the answers are read from: every chain served, its read models brought up to date before they are handed out.
 * The simulator's chains (`ChainRegistry`), or the MSW handlers' world, folded from its logs.
 */
export interface ReadSource {
  /** The chains served, by id, in the order they are served. */
  ids(): number[];
  /** Every chain's read models (only `chainId`'s when given). */
  read(chainId?: number): Promise<ModelsRead[]>;
  /** The chain a collection lives on (among `chainId`'s, when given). */
  findCollection(address: Address, chainId?: number): Promise<CollectionLookup>;
  /** Resolves once every index holds its items, balances and histories. */
  whole(): Promise<void>;
}

/** The first of `among` that holds the collection, with `among`; undefined if none does. */
export function holding<Read extends ModelsRead>(among: Read[], address: Address): Found<Read> | undefined {
  const found = among.find(({ models }) => models.collections.has(address));
  return found && { found, among };
}

/** Adds the fact to its item's activity; answers it (what a reducer folded in). */
export function recordActivity<Fact extends Activity>(models: ChainModels, fact: Fact): Fact {
  const key = itemKey(fact.collection, fact.tokenId);
  const facts = models.activity.get(key);
  if (facts) facts.push(fact);
  else models.activity.set(key, [fact]);
  return fact;
}

/**
 * One more (or one fewer) reason for `holder` to count as a holder of `collection`: a nonzero balance, or an open
 * listing.
 */
export function countHolder(models: ChainModels, collection: Address, holder: Address, change: 1 | -1): void {
  let counts = models.holders.get(collection);
  if (!counts) models.holders.set(collection, (counts = new Map()));
  const count = (counts.get(holder) ?? 0) + change;
  if (count === 0) counts.delete(holder);
  else counts.set(holder, count);
}

/** Facts of the read models: collections and item activity, in chain order (or newest first, when taken back). */
export interface Folded {
  collections: CollectionRecord[];
  activity: Activity[];
}

/** What one catch-up of the index changed: what a rewind took back (newest first), then what the reducers folded in. */
export interface IndexChange {
  /** The models after the change (the views of the added facts are read from them). */
  models: ChainModels;
  removed: Folded;
  added: Folded;
}

/**
 * Told what the index does, as it does it. Called synchronously from the indexer: an observer
 * keeps what it needs and returns at once (it must not throw, and nothing is waited for).
 */
export interface IndexObserver {
  /** A catch-up added or took back facts. */
  indexed(change: IndexChange): void;
  /** The chain may have moved (a write, a call from outside, a poll): a sync would find out. */
  mayHaveMoved(): void;
}

export const nothingFolded = (): Folded => ({ collections: [], activity: [] });

export function isEmpty(folded: Folded): boolean {
  return folded.collections.length === 0 && folded.activity.length === 0;
}

/**
 * What `before` holds that `after` (the models of a checkpoint on the same chain, so a prefix of
 * `before`'s history) does not: the facts a rewind takes back, newest first.
 */
export function takenBack(before: ChainModels, after: ChainModels): Folded {
  const activity: Activity[] = [];
  for (const [key, facts] of before.activity) {
    const kept = after.activity.get(key)?.length ?? 0;
    for (let i = facts.length - 1; i >= kept; i--) activity.push(facts[i]!);
  }
  activity.sort((a, b) => b.blockNumber - a.blockNumber || b.logIndex - a.logIndex);
  const collections = [...before.collections.values()]
    .filter((collection) => !after.collections.has(collection.address))
    .reverse();
  return { collections, activity };
}
