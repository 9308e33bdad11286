import { LRUCache } from "lru-cache";
import type { ReadModels } from "../indexer/models.ts";

/** At most this many bytes of answers are kept (the least recently served go first). */
export const ANSWER_BYTES_KEPT = 4 * 1024 * 1024;
/** And at most this many answers. */
export const ANSWERS_KEPT = 1000;

/** An answer as kept: the request as its schemas made it, and the bytes answered to it. */
export interface KeptAnswer {
  request: unknown;
  /** Which read models, at which version, the bytes were made from. */
  stamp: string;
  bytes: Uint8Array;
}

/**
 * The bytes of read answers, each made once per state of the read models it comes from and served as they are until
 * those change: a bounded LRU keyed by the request's URL, emptied whenever a chain's models move (a block indexed, a
 * rewind or a restore: a new version, or new models).
 */
export class AnswerBytes {
  readonly #kept = new LRUCache<string, KeptAnswer>({
    max: ANSWERS_KEPT,
    maxSize: ANSWER_BYTES_KEPT,
    sizeCalculation: ({ bytes, stamp }) => bytes.byteLength + stamp.length,
  });
  /** The stamp of each chain's models as last seen: a different one empties the cache. */
  readonly #seen = new Map<number, string>();
  readonly #ids = new WeakMap<ReadModels, number>();
  #nextId = 0;

  /** What is kept for `key` (its request needs no checking again; its bytes may be out of date). */
  kept(key: string): KeptAnswer | undefined {
    return this.#kept.get(key);
  }

  /**
   * The bytes for `key` made from `from` as it is now: `kept`'s if they were made from that, else `make()`'s, kept
   * with `request` from now on.
   */
  bytes(
    key: string,
    kept: KeptAnswer | undefined,
    request: unknown,
    from: readonly ReadModels[],
    make: () => Uint8Array,
  ) {
    // An answer from no chain at all (one not served) is made each time: no version would tell it moved.
    if (from.length === 0) return make();
    const stamp = this.#stamp(from);
    if (kept?.stamp === stamp) return kept.bytes;
    const bytes = make();
    this.#kept.set(key, { request, stamp, bytes });
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
