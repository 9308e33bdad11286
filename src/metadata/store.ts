import type { Address, Hex } from "viem";
import type { StoredItem } from "../schemas/mint.ts";

/** What the chain does not hold about a collection; supplied by whoever created it (the demo world, a fixture). */
export interface CollectionMetadata {
  description: string;
  genre: string;
  image: string;
  imageHash: string;
  slug: string;
  website: string;
  isVerified: boolean;
}

/** One change to the store, as the journal records it. */
export type MetadataChange =
  | { t: "item"; chainId: number; creation: Hex; item: StoredItem | null }
  | { t: "collection"; chainId: number; address: Address; metadata: CollectionMetadata };

export interface MetadataSnapshot {
  collections: ReadonlyMap<string, CollectionMetadata>;
  items: ReadonlyMap<string, StoredItem>;
}

/**
 * Off-chain metadata, keyed by what the chain identifies: a collection by chain
 * and address, an item by the transaction that created it (known before its token
 * ids, and gone with it if the chain drops that transaction). Never a copy of on-chain state.
 */
export class MetadataStore {
  #collections = new Map<string, CollectionMetadata>();
  #items = new Map<string, StoredItem>();
  #observer: ((change: MetadataChange) => void) | undefined;
  /** Bumped on every change, so cached views notice. */
  version = 0;

  /** From now on, every change is also told to `observer` (the journal), before it is answered. */
  observe(observer: ((change: MetadataChange) => void) | undefined): void {
    this.#observer = observer;
  }

  setCollection(chainId: number, address: Address, metadata: CollectionMetadata): void {
    this.#collections.set(`${chainId}:${address.toLowerCase()}`, metadata);
    this.version += 1;
    this.#observer?.({ t: "collection", chainId, address: address.toLowerCase() as Address, metadata });
  }

  collection(chainId: number, address: Address): CollectionMetadata | undefined {
    return this.#collections.get(`${chainId}:${address}`);
  }

  /** The item (all its token ids) that the transaction `creation` creates on `chainId`; null: it creates none (it was dropped or reverted). */
  setItem(chainId: number, creation: Hex, item: StoredItem | null): void {
    if (item) this.#items.set(`${chainId}:${creation}`, item);
    else if (!this.#items.delete(`${chainId}:${creation}`)) return;
    this.#observer?.({ t: "item", chainId, creation, item });
  }

  item(chainId: number, creation: Hex): StoredItem | undefined {
    return this.#items.get(`${chainId}:${creation}`);
  }

  /** Everything stored, to come back to with `restore` (a snapshot). */
  snapshot(): MetadataSnapshot {
    return { collections: new Map(this.#collections), items: new Map(this.#items) };
  }

  restore(snapshot: MetadataSnapshot): void {
    this.#collections = new Map(snapshot.collections);
    this.#items = new Map(snapshot.items);
    this.version += 1;
  }
}

export function slugify(name: string): string {
  return (
    name
      .toLowerCase()
      .normalize("NFKD")
      .replace(/[^a-z0-9]+/g, "-")
      .replace(/^-+|-+$/g, "") || "collection"
  );
}

export function defaultCollectionMetadata(name: string): CollectionMetadata {
  return { description: "", genre: "", image: "", imageHash: "", slug: slugify(name), website: "", isVerified: true };
}
