// Events pushed as they happen: each chain's index observed, what it folded in and took back made entries through
// the views, the last of them kept, each pushed to its listeners by their filters.
import type { SimChain } from "../chain/sim-chain.ts";
import type { Address } from "viem";
import type { CollectionRecord, IndexChange } from "../indexer/models.ts";
import { COLLECTION_CREATED, type EventKind, type RemovedEvent } from "../schemas/events.ts";
import { collectionViews } from "../views/collections.ts";
import { itemEvent } from "../views/item-event.ts";

/** Someone the feed pushes to: an SSE stream, or a webhook's queue. */
export interface Listener {
  filter: EventFilter;
  /** Each entry that passes the filter, as it is indexed; must return at once. */
  push(entry: FeedEntry): void;
  /** The feed is closing (the simulator stops). */
  end(): void;
}

/** How many entries are kept for `Last-Event-ID`. */
export const FEED_BUFFER = 5_000;

/**
 * The events of every chain the simulator serves, as their indexes fold them in and rewinds take
 * them back: pushed to listeners as they come, and the last `capacity` kept for resumption. While
 * anyone listens, a chain that may have moved (a call over JSON-RPC, a write) is synced at once,
 * so its events are pushed without waiting for a read.
 */
export class EventFeed {
  readonly #capacity: number;
  /** The last `capacity` entries, oldest first, after older ones not cut off yet (cut once they are as many again). */
  #kept: FeedEntry[] = [];
  #seq = 0;
  readonly #listeners = new Set<Listener>();
  readonly #syncing = new Set<SimChain>();
  #closed = false;

  constructor(capacity = FEED_BUFFER) {
    this.#capacity = capacity;
  }

  /** Observes these chains' indexes from now on (the world is in: its loading is not pushed). */
  follow(chains: SimChain[]): void {
    for (const chain of chains)
      chain.observe({
        indexed: (change) => this.publish(entriesOf(change)),
        mayHaveMoved: () => this.#syncSoon(chain),
      });
  }

  /** Pushes every entry that passes its filter to `listener` from now on; answers how to stop. */
  listen(listener: Listener): () => void {
    if (this.#closed) {
      listener.end();
      return () => undefined;
    }
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  get listeners(): number {
    return this.#listeners.size;
  }

  /** The buffered entries passing `filter` after the oldest buffered one with `id` that passes it, or a gap. */
  after(id: string, filter: EventFilter): { entries: FeedEntry[] } | { gap: true } {
    const entries = this.buffered();
    const from = entries.findIndex((entry) => entry.id === id && matches(filter, entry));
    if (from === -1) return { gap: true };
    return { entries: entries.slice(from + 1).filter((entry) => matches(filter, entry)) };
  }

  /** Every entry kept, oldest first. */
  buffered(): FeedEntry[] {
    return this.#kept.slice(Math.max(0, this.#kept.length - this.#capacity));
  }

  /** Ends every listener; nothing is pushed after. */
  close(): void {
    this.#closed = true;
    for (const listener of this.#listeners) listener.end();
    this.#listeners.clear();
  }

  /** Pushes entries made elsewhere than an index (the proxy's violations) as the index's are pushed. */
  publish(entries: NewEntry[]): void {
    const at = Date.now();
    for (const made of entries) {
      const entry: FeedEntry = { ...made, seq: ++this.#seq, at };
      this.#kept.push(entry);
      if (this.#kept.length >= 2 * this.#capacity) this.#kept.splice(0, this.#kept.length - this.#capacity);
      for (const listener of this.#listeners) if (matches(listener.filter, entry)) listener.push(entry);
    }
  }

  /**
   * A chain that may have moved is synced once the current turn is over (many marks, one sync), while anyone listens.
   */
  #syncSoon(chain: SimChain): void {
    if (this.#closed || this.#listeners.size === 0 || this.#syncing.has(chain)) return;
    this.#syncing.add(chain);
    setImmediate(() => {
      this.#syncing.delete(chain);
      // A node that does not answer is synced again on its next poll; reads meanwhile answer 503.
      chain.sync().catch(() => undefined);
    });
  }
}

/** One event of the feed: what a listener is sent, and what its filters look at. */
export interface FeedEntry {
  /** Its place in the feed (counts up from 1). */
  seq: number;
  /**
   * The SSE `event:` name: the item event's kind, `CollectionCreated`, or `removed`; `violation` for what `nft-sim
   * proxy` found in an upstream's answer (no chain, collection nor kind).
   */
  type: EventKind | "removed" | "violation";
  /**
   * The SSE `id:`: the item event's id, the collection's (`CollectionCreated-<chainId>-<address>`), or that of the
   * event removed.
   */
  id: string;
  /** The kind the `kinds` filter sees: for a removal, the kind of the event taken back. */
  kind?: EventKind;
  chainId?: number;
  collection?: Address;
  tokenId?: number;
  /** The JSON `data:`, written once for every listener. */
  data: string;
  /** When it was indexed (unix milliseconds). */
  at: number;
}

export type NewEntry = Omit<FeedEntry, "seq" | "at">;

/**
 * A collection's event id: unique per chain, and the same if a rewind takes the collection back and the chain makes it
 * again.
 */
export const collectionEventId = (record: CollectionRecord) =>
  `${COLLECTION_CREATED}-${record.chainId}-${record.address}`;

/**
 * The entries of one change of the index: first what was taken back, then each new collection
 * (as `GET /api/v2/collection/:address` serves it now), then each new item event (as the item's
 * history serves it: the same view, so the same object). A rewind goes back to a checkpoint and
 * folds the blocks the chain still holds again: what it takes back and folds again unchanged is
 * not told at all.
 */
export function entriesOf({ models, removed, added }: IndexChange): NewEntry[] {
  const { facts } = models;
  const chainId = facts.chainId;
  const eventsOf = (activity: IndexChange["added"]["activity"]) =>
    activity.map((fact) => {
      const event = itemEvent(facts, fact);
      return { fact, event, data: JSON.stringify(event) };
    });
  // What was taken back and folded again alike cancels out; what is left of either is told. A collection is the same
  // one when folded again if everything its creation told is.
  const [eventsGone, eventsNew] = leftOver(eventsOf(removed.activity), eventsOf(added.activity), ({ data }) => data);
  const [collectionsGone, collectionsNew] = leftOver(removed.collections, added.collections, (r) => JSON.stringify(r));
  const entry = (type: NewEntry["type"], { id, event, collection, tokenId }: RemovedEvent, data: string): NewEntry => ({
    type,
    id,
    kind: event,
    chainId,
    collection: collection as Address,
    ...(tokenId === undefined ? {} : { tokenId }),
    data,
  });
  const removal = (gone: RemovedEvent) => entry("removed", gone, JSON.stringify(gone));
  const collectionWhat = (record: CollectionRecord): RemovedEvent => ({
    id: collectionEventId(record),
    event: COLLECTION_CREATED,
    chainId,
    collection: record.address,
  });
  const itemWhat = ({ fact, event }: (typeof eventsNew)[number]): RemovedEvent => ({
    id: event.id,
    event: event.event,
    chainId,
    collection: fact.collection,
    tokenId: event.tokenId,
  });
  const entries = [
    ...eventsGone.map((gone) => removal(itemWhat(gone))),
    ...collectionsGone.map((record) => removal(collectionWhat(record))),
  ];
  const views = added.collections.length > 0 ? collectionViews(models) : undefined;
  for (const record of collectionsNew) {
    const collection = views?.get(record.address)?.collection;
    if (collection) entries.push(entry(COLLECTION_CREATED, collectionWhat(record), JSON.stringify(collection)));
  }
  for (const made of eventsNew) entries.push(entry(made.event.event, itemWhat(made), made.data));
  return entries;
}

/** What is left of `removed` and of `added` once each alike (by `key`) in both cancels out, one for one. */
function leftOver<T>(removed: T[], added: T[], key: (value: T) => string): [T[], T[]] {
  const counts = new Map<string, number>();
  for (const value of removed) counts.set(key(value), (counts.get(key(value)) ?? 0) + 1);
  const take = (value: T) => {
    const count = counts.get(key(value)) ?? 0;
    if (count > 0) counts.set(key(value), count - 1);
    return count > 0;
  };
  const addedLeft = added.filter((value) => !take(value));
  return [removed.filter(take), addedLeft];
}

/** Which events a listener wants; a filter left out lets every event through. */
export interface EventFilter {
  chainId?: number;
  collection?: Address;
  tokenId?: number;
  kinds?: ReadonlySet<EventKind>;
}

/** The filter of a query or a webhook's body (addresses in any case, kinds as a list or comma-separated). */
export function eventFilter(given: {
  chainId?: number;
  collection?: string;
  tokenId?: number;
  kinds?: string | readonly string[];
}): EventFilter {
  const kinds = typeof given.kinds === "string" ? given.kinds.split(",") : given.kinds;
  return {
    ...(given.chainId === undefined ? {} : { chainId: given.chainId }),
    ...(given.collection === undefined ? {} : { collection: given.collection.toLowerCase() as Address }),
    ...(given.tokenId === undefined ? {} : { tokenId: given.tokenId }),
    ...(kinds === undefined ? {} : { kinds: new Set(kinds as EventKind[]) }),
  };
}

/**
 * Whether the entry passes every filter given (a removal passes as the kind it takes back; a collection has no token
 * id).
 */
export function matches(filter: EventFilter, entry: FeedEntry): boolean {
  return (
    (filter.chainId === undefined || filter.chainId === entry.chainId) &&
    (filter.collection === undefined || filter.collection === entry.collection) &&
    (filter.tokenId === undefined || filter.tokenId === entry.tokenId) &&
    (filter.kinds === undefined || (entry.kind !== undefined && filter.kinds.has(entry.kind)))
  );
}
