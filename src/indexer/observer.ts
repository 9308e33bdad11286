import type { Activity, ChainModels, CollectionRecord } from "./models.ts";

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
