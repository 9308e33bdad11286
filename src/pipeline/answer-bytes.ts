import { LRUCache } from "lru-cache";
import type { ReadModels } from "../indexer/models.ts";
import { versionViews, type VersionViews } from "../views/collections.ts";

/** At most this many bytes of answers are kept (the least recently served go first). */
export const ANSWER_BYTES_KEPT = 4 * 1024 * 1024;
/** And at most this many answers. */
export const ANSWERS_KEPT = 1000;

/** An answer as kept: the request as its schemas made it, and the bytes answered to it. */
export interface KeptAnswer {
  request: unknown;
  /** What the views made of each read models it comes from, at the version it was made from. */
  from: readonly VersionViews[];
  bytes: Uint8Array;
}

/**
 * The bytes of read answers, each made once per state of the read models it comes from and served as they are until
 * those change: a bounded LRU keyed by the request's URL, emptied whenever a chain's models move (a block indexed, a
 * rewind or a restore: a new version, or new models, whose views are made anew: `versionViews`).
 */
export class AnswerBytes {
  readonly #kept = new LRUCache<string, KeptAnswer>({
    max: ANSWERS_KEPT,
    maxSize: ANSWER_BYTES_KEPT,
    sizeCalculation: ({ bytes, from }) => bytes.byteLength + 8 * from.length,
  });
  /** Each chain's version views as last seen: other ones empty the cache. */
  readonly #seen = new Map<number, VersionViews>();

  /** What is kept for each key, to read (its request needs no checking again; its bytes may be out of date). */
  get kept(): Pick<LRUCache<string, KeptAnswer>, "get" | "size" | "calculatedSize"> {
    return this.#kept;
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
  ): Uint8Array {
    // An answer from no chain at all (one not served) is made each time: no version would tell it moved.
    if (from.length === 0) return make();
    const now = from.map((models) => this.#seenNow(models));
    if (kept && kept.from.length === now.length && kept.from.every((views, i) => views === now[i])) return kept.bytes;
    const bytes = make();
    this.#kept.set(key, { request, from: now, bytes });
    return bytes;
  }

  #seenNow(models: ReadModels): VersionViews {
    const views = versionViews(models);
    const chainId = models.facts.chainId;
    if (this.#seen.get(chainId) !== views) {
      this.#seen.set(chainId, views);
      this.#kept.clear();
    }
    return views;
  }
}
