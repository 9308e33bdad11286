import type { CollectionRecord, Creation, ReadOnly } from "../indexer/models.ts";
import { decodeCollectionDescription, decodeItemDescription } from "../metadata/codec.ts";
import type { ItemDescription } from "../schemas/item.ts";
import type { CollectionDescription } from "../schemas/on-chain-metadata.ts";

// The metadata the chain told (JSON text on the read models' records) read once per record:
// records are replaced, never changed, when the index goes back to a checkpoint.
const collections = new WeakMap<CollectionRecord, CollectionDescription>();
const items = new WeakMap<ReadOnly<Creation>, ItemDescription | null>();

/** What the collection's creating transaction said of it (the defaults if nothing readable). */
export function collectionDescription(record: CollectionRecord): CollectionDescription {
  let found = collections.get(record);
  if (!found) collections.set(record, (found = decodeCollectionDescription(record.name, record.metadata)));
  return found;
}

/** What the item's creating transaction said of it, if it described the item at all. */
export function itemDescription(creation: ReadOnly<Creation>): ItemDescription | undefined {
  let found = items.get(creation);
  if (found === undefined) {
    const text = creation.description?.metadata;
    items.set(creation, (found = (text !== undefined && decodeItemDescription(text)) || null));
  }
  return found ?? undefined;
}
