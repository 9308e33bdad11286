/** At most this many bytes of an item's metadata go on chain, as compact JSON (a mint with more answers 413). */
export const ITEM_METADATA_MAX_BYTES = 16_384;
/** At most this many bytes of a collection's metadata go on chain (a collection with more answers 413). */
export const COLLECTION_METADATA_MAX_BYTES = 8_192;
