import { LRUCache } from "lru-cache";
import type { ChainRead } from "../chain/registry.ts";

type ReadModels = ChainRead["models"];

/** At most this many bytes of answers are kept (the least recently served go first). */
export const ANSWER_BYTES_KEPT = 4 * 1024 * 1024;
/** And at most this many answers. */
export const ANSWERS_KEPT = 1000;

interface Kept {
  /** Which read models, at which version, the bytes were made from. */
  stamp: string;
  bytes: Buffer;
}

/**
 * The bytes of read answers, each made once per state of the read models it comes from and served as they are until
 * those change: a bounded LRU keyed by the request's URL, emptied whenever a chain's models move (a block indexed, a
 * rewind or a restore: a new version, or new models).
 */
export class AnswerBytes {
  readonly #kept = new LRUCache<string, Kept>({
    max: ANSWERS_KEPT,
    maxSize: ANSWER_BYTES_KEPT,
    sizeCalculation: ({ bytes, stamp }) => bytes.byteLength + stamp.length,
  });
  /** The stamp of each chain's models as last seen: a different one empties the cache. */
  readonly #seen = new Map<number, string>();
  readonly #ids = new WeakMap<ReadModels, number>();
  #nextId = 0;

  /** The bytes for `key` made from `from` as it is now: kept ones if they were made from that, else `make()`'s. */
  bytes(key: string, from: readonly ReadModels[], make: () => Buffer): Buffer {
    const stamp = this.#stamp(from);
    const kept = this.#kept.get(key);
    if (kept?.stamp === stamp) return kept.bytes;
    const bytes = make();
    this.#kept.set(key, { stamp, bytes });
    return bytes;
  }

  /** How many answers are kept, and their bytes. */
  get size(): { answers: number; bytes: number } {
    return { answers: this.#kept.size, bytes: this.#kept.calculatedSize };
  }

  #stamp(from: readonly ReadModels[]): string {
    let stamp = "";
    for (const models of from) {
      const chain = `${this.#idOf(models)}.${models.version}`;
      const chainId = models.facts.chainId;
      if (this.#seen.get(chainId) !== chain) {
        this.#seen.set(chainId, chain);
        this.#kept.clear();
      }
      stamp += `${chainId}:${chain} `;
    }
    return stamp;
  }

  #idOf(models: ReadModels): number {
    let id = this.#ids.get(models);
    if (id === undefined) this.#ids.set(models, (id = ++this.#nextId));
    return id;
  }
}
