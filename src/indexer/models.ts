import type { Address, Hex } from "viem";
import type { ItemEvent } from "../schemas/item-event.ts";

/** What a chain's logs tell about one collection. */
export interface CollectionRecord {
  chainId: number;
  address: Address;
  owner: Address;
  name: string;
  uri: string;
  createdAt: number;
  createdBlock: number;
}

export interface ItemRecord {
  collection: Address;
  tokenId: bigint;
  creator: Address;
  maxSupply: bigint;
  royaltyPerMille: number;
}

/** Tokens in the marketplace's escrow; they still count as their seller's. */
export interface Listing {
  seller: Address;
  collection: Address;
  tokenId: bigint;
  amount: bigint;
}

export interface Sale {
  timestamp: number;
  worth: number;
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
  currencies: Map<Address, Currency>;
}

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
  /** Each item's history in chain order (oldest first). */
  history: Map<string, ItemEvent[]>;
  sales: Map<Address, Sale[]>;
  /** Bumped whenever anything above changes, so derived views can be cached. */
  version: number;
}

export function emptyModels(facts: ChainFacts): ChainModels {
  return {
    facts,
    head: { blockNumber: -1, timestamp: 0 },
    collections: new Map(),
    items: new Map(),
    balances: new Map(),
    listings: new Map(),
    history: new Map(),
    sales: new Map(),
    version: 0,
  };
}

export function itemKey(collection: Address, tokenId: bigint): string {
  return `${collection}-${tokenId}`;
}

export function itemRef(chainId: number, collection: Address, tokenId: bigint): string {
  return `${chainId}-${collection}-${tokenId}`;
}

/** Where a log sits on the chain, and when its block was made. */
export interface LogPosition {
  address: Address;
  blockNumber: number;
  logIndex: number;
  transactionHash: Hex;
  timestamp: number;
}
