import type { Address } from "viem";
import type { CollectionRecord, IndexChange } from "../indexer/models.ts";
import { COLLECTION_CREATED, type EventKind, type RemovedEvent } from "../schemas/events.ts";
import { collectionViews } from "../views/collections.ts";
import { itemEvent } from "../views/item-event.ts";

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
  const addedEvents = added.activity.map((fact) => ({ fact, event: itemEvent(facts, fact) }));
  const addedData = addedEvents.map(({ event }) => JSON.stringify(event));
  const removedData = removed.activity.map((fact) => JSON.stringify(itemEvent(facts, fact)));
  // What was taken back and folded again alike cancels out; what is left of either is told.
  const takenBack = new Multiset(removedData);
  const unchanged = addedData.map((data) => takenBack.take(data));
  const collectionsBack = new Multiset(removed.collections.map(sameCollection));
  const collectionUnchanged = added.collections.map((record) => collectionsBack.take(sameCollection(record)));

  const entries: NewEntry[] = [];
  const removal = (gone: RemovedEvent): NewEntry => ({
    type: "removed",
    id: gone.id,
    kind: gone.event,
    chainId,
    collection: gone.collection as Address,
    ...(gone.tokenId === undefined ? {} : { tokenId: gone.tokenId }),
    data: JSON.stringify(gone),
  });
  removed.activity.forEach((fact, i) => {
    if (!takenBack.take(removedData[i]!)) return;
    const event = itemEvent(facts, fact);
    const tokenId = Number(fact.tokenId);
    entries.push(removal({ id: event.id, event: event.event, chainId, collection: fact.collection, tokenId }));
  });
  for (const record of removed.collections) {
    if (!collectionsBack.take(sameCollection(record))) continue;
    entries.push(
      removal({ id: collectionEventId(record), event: COLLECTION_CREATED, chainId, collection: record.address }),
    );
  }
  const views = added.collections.length > 0 ? collectionViews(models) : undefined;
  added.collections.forEach((record, i) => {
    const collection = views?.get(record.address)?.collection;
    if (!collection || collectionUnchanged[i]) return;
    entries.push({
      type: COLLECTION_CREATED,
      id: collectionEventId(record),
      kind: COLLECTION_CREATED,
      chainId,
      collection: record.address,
      data: JSON.stringify(collection),
    });
  });
  addedEvents.forEach(({ fact, event }, i) => {
    if (unchanged[i]) return;
    entries.push({
      type: event.event,
      id: event.id,
      kind: event.event,
      chainId,
      collection: fact.collection,
      tokenId: event.tokenId,
      data: addedData[i]!,
    });
  });
  return entries;
}

/** What makes a collection the same one when folded again: everything its creation told. */
const sameCollection = (record: CollectionRecord) => JSON.stringify(record);

/** Strings counted: `take` answers whether one was there, and takes it. */
class Multiset {
  readonly #counts = new Map<string, number>();

  constructor(values: string[]) {
    for (const value of values) this.#counts.set(value, (this.#counts.get(value) ?? 0) + 1);
  }

  take(value: string): boolean {
    const count = this.#counts.get(value) ?? 0;
    if (count === 0) return false;
    this.#counts.set(value, count - 1);
    return true;
  }
}
