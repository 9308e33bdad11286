import type { Hex } from "viem";
import { createAjv } from "../schemas/ajv.ts";
import { defaultsOf } from "../schemas/common.ts";
import { ItemDescription } from "../schemas/item.ts";
import {
  CollectionDescription,
  COLLECTION_METADATA_MAX_BYTES,
  ITEM_METADATA_MAX_BYTES,
} from "../schemas/on-chain-metadata.ts";
import { apiError, ERRORS, isApiError } from "../core/errors.ts";
import { slugify, textToHex, utf8Length } from "../core/formats.ts";

// The on-chain form of item and collection metadata (src/schemas/on-chain-metadata.ts): written
// by the mint, the control API and the scenario replay; read back from the logs by the views. What
// anyone else put on chain is read the same way: bytes that are not such JSON describe nothing.

// Defaults filled in, fields nobody knows dropped: what a script wrote reads as the API shows it.
const reading = createAjv({ useDefaults: true, removeAdditional: "all", coerceTypes: false });
const readItem = reading.compile<ItemDescription>(ItemDescription);
const readCollection = reading.compile<CollectionDescription>(CollectionDescription);

const ITEM_DEFAULTS = defaultsOf(ItemDescription);
const COLLECTION_DEFAULTS = defaultsOf(CollectionDescription) as Omit<CollectionDescription, "slug">;

/** An item's description as compact JSON bytes (defaults left out); throws METADATA_TOO_LARGE past the limit. */
export function encodeItemDescription(item: ItemDescription): Hex {
  const { name, description, imageUrl, fileType, properties, isConsumable } = item;
  const fields = { name, description, imageUrl, fileType, properties, isConsumable };
  return encoded(fields, ITEM_DEFAULTS, "item", ITEM_METADATA_MAX_BYTES);
}

/** A collection's description as compact JSON bytes (defaults, and a slug its name gives, left out). */
export function encodeCollectionDescription(name: string, collection: CollectionDescription): Hex {
  const { description, genre, image, imageHash, slug, website, isVerified } = collection;
  const defaults = { ...COLLECTION_DEFAULTS, slug: slugify(name) };
  const fields = { description, genre, image, imageHash, slug, website, isVerified };
  return encoded(fields, defaults, "collection", COLLECTION_METADATA_MAX_BYTES);
}

/** What `encode` makes; past the limit, its 413 told as `part`'s, with what to shorten (before anything is sent). */
export function encodedWithin(encode: () => Hex, part: string, shorten: string): Hex {
  try {
    return encode();
  } catch (error) {
    if (!isApiError(error, ERRORS.METADATA_TOO_LARGE)) throw error;
    throw error.withErrors([`${part}: ${error.errors[0]}; shorten its ${shorten}`]);
  }
}

/** The item an ItemDescribed log's metadata (as text) describes, or undefined if it is not an item's metadata. */
export function decodeItemDescription(text: string): ItemDescription | undefined {
  const parsed = parseJson(text);
  return readItem(parsed) ? parsed : undefined;
}

/**
 * The collection a CollectionCreated log's metadata (as text) describes; one with none (or unreadable) has the
 * defaults.
 */
export function decodeCollectionDescription(name: string, text: string): CollectionDescription {
  // JSON that is no object (an array, a string, null) spreads to no field the schema keeps, and reads as the defaults.
  const candidate: unknown = { slug: slugify(name), ...(parseJson(text) as object | undefined) };
  if (readCollection(candidate)) return candidate;
  return { ...COLLECTION_DEFAULTS, slug: slugify(name) };
}

/** The metadata as compact JSON bytes; too large to go on chain (413), its one line tells its size and the limit. */
function encoded(fields: object, defaults: Record<string, unknown>, what: "item" | "collection", limit: number): Hex {
  const kept = Object.entries(fields).filter(([key, value]) =>
    Array.isArray(value) ? value.length > 0 : value !== defaults[key],
  );
  const json = JSON.stringify(Object.fromEntries(kept));
  const bytes = utf8Length(json);
  if (bytes > limit) {
    const [size, most] = [bytes, limit].map((n) => n.toLocaleString("en"));
    const line = `the ${what}'s metadata is ${size} bytes as it goes on chain (compact JSON), more than the ${most} allowed`;
    throw apiError(ERRORS.METADATA_TOO_LARGE, { what }, { errors: [line] });
  }
  return textToHex(json);
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
