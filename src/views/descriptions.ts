import type { CollectionRecord, Creation, ReadOnly } from "../indexer/models.ts";
import { decodeCollectionDescription, decodeItemDescription } from "../metadata/codec.ts";
import type { ItemDescription } from "../schemas/item.ts";
import type { CollectionDescription } from "../schemas/on-chain-metadata.ts";
import { madeOf } from "./made.ts";

// The metadata the chain told (JSON text on the read models' records) read once per record.

/** What the collection's creating transaction said of it (the defaults if nothing readable). */
export function collectionDescription(record: CollectionRecord): CollectionDescription {
  return madeOf(record, () => decodeCollectionDescription(record.name, record.metadata));
}

/** What the item's creating transaction said of it, if it described the item at all. */
export function itemDescription(creation: ReadOnly<Creation>): ItemDescription | undefined {
  const text = creation.description?.metadata;
  return madeOf(creation, () => (text !== undefined && decodeItemDescription(text)) || null) ?? undefined;
}
