import type { SimChain } from "../chain/sim-chain.ts";
import { entriesOf, type FeedEntry, type NewEntry } from "./entries.ts";
import { matches, type EventFilter } from "./filter.ts";

/** Someone the feed pushes to: an SSE stream, or a webhook's queue. */
export interface Listener {
  filter: EventFilter;
  /** Each entry that passes the filter, as it is indexed; must return at once. */
  push(entry: FeedEntry): void;
  /** The feed is closing (the simulator stops). */
  end(): void;
}

/**
 * Where a resumed listener starts: the buffered entries after the id it gave, or a gap (the id is not in the buffer).
 */
export type Resumption = { entries: FeedEntry[] } | { gap: true };

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
  readonly #ring: (FeedEntry | undefined)[];
  #start = 0;
  #size = 0;
  #seq = 0;
  readonly #listeners = new Set<Listener>();
  readonly #syncing = new Set<SimChain>();
  #closed = false;

  constructor(capacity = FEED_BUFFER) {
    this.#capacity = capacity;
    this.#ring = new Array<FeedEntry | undefined>(capacity);
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
  after(id: string, filter: EventFilter): Resumption {
    const entries = this.buffered();
    const from = entries.findIndex((entry) => entry.id === id && matches(filter, entry));
    if (from === -1) return { gap: true };
    return { entries: entries.slice(from + 1).filter((entry) => matches(filter, entry)) };
  }

  /** Every entry kept, oldest first. */
  buffered(): FeedEntry[] {
    const entries: FeedEntry[] = [];
    for (let i = 0; i < this.#size; i++) entries.push(this.#ring[(this.#start + i) % this.#capacity]!);
    return entries;
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
      this.#keep(entry);
      for (const listener of this.#listeners) if (matches(listener.filter, entry)) listener.push(entry);
    }
  }

  #keep(entry: FeedEntry): void {
    if (this.#size < this.#capacity) {
      this.#ring[(this.#start + this.#size) % this.#capacity] = entry;
      this.#size += 1;
    } else {
      this.#ring[this.#start] = entry;
      this.#start = (this.#start + 1) % this.#capacity;
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
