import type { Hex } from "viem";
import { createAjv } from "../schemas/ajv.ts";
import { ItemDescription } from "../schemas/item.ts";
import {
  CollectionDescription,
  COLLECTION_METADATA_MAX_BYTES,
  ITEM_METADATA_MAX_BYTES,
} from "../schemas/on-chain-metadata.ts";
import { slugify, textToHex } from "../core/formats.ts";

// The on-chain form of item and collection metadata (src/schemas/on-chain-metadata.ts): written
// by the mint, the control API and the scenario replay; read back from the logs by the views. What
// anyone else put on chain is read the same way: bytes that are not such JSON describe nothing.

// Defaults filled in, fields nobody knows dropped: what a script wrote reads as the API shows it.
const reading = createAjv({ useDefaults: true, removeAdditional: "all", coerceTypes: false });
const readItem = reading.compile<ItemDescription>(ItemDescription);
const readCollection = reading.compile<CollectionDescription>(CollectionDescription);

const ITEM_DEFAULTS: Partial<ItemDescription> = {
  description: "",
  imageUrl: "",
  fileType: "image/png",
  isConsumable: false,
};
const COLLECTION_DEFAULTS: Omit<CollectionDescription, "slug"> = {
  description: "",
  genre: "",
  image: "",
  imageHash: "",
  website: "",
  isVerified: true,
};

/** Metadata too large to go on chain: what it is, its size and the limit. */
export class MetadataTooLarge extends Error {
  readonly bytes: number;
  readonly limit: number;
  constructor(what: string, bytes: number, limit: number) {
    const [size, most] = [bytes, limit].map((n) => n.toLocaleString("en"));
    super(`${what} is ${size} bytes as it goes on chain (compact JSON), more than the ${most} allowed`);
    this.name = "MetadataTooLarge";
    this.bytes = bytes;
    this.limit = limit;
  }
}

/** An item's description as compact JSON bytes (defaults left out); throws MetadataTooLarge past the limit. */
export function encodeItemDescription(item: ItemDescription): Hex {
  const { name, description, imageUrl, fileType, properties, isConsumable } = item;
  const json = compact({ name, description, imageUrl, fileType, properties, isConsumable }, ITEM_DEFAULTS);
  return bounded(json, "the item's metadata", ITEM_METADATA_MAX_BYTES);
}

/** A collection's description as compact JSON bytes (defaults, and a slug its name gives, left out). */
export function encodeCollectionDescription(name: string, collection: CollectionDescription): Hex {
  const { description, genre, image, imageHash, slug, website, isVerified } = collection;
  const defaults = { ...COLLECTION_DEFAULTS, slug: slugify(name) };
  const json = compact({ description, genre, image, imageHash, slug, website, isVerified }, defaults);
  return bounded(json, "the collection's metadata", COLLECTION_METADATA_MAX_BYTES);
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

function compact(fields: Record<string, unknown>, defaults: Record<string, unknown>): string {
  const kept = Object.entries(fields).filter(([key, value]) =>
    Array.isArray(value) ? value.length > 0 : value !== defaults[key],
  );
  return JSON.stringify(Object.fromEntries(kept));
}

function bounded(json: string, what: string, limit: number): Hex {
  // Stryker disable next-line StringLiteral: Buffer reads an empty encoding name as UTF-8, its default
  const bytes = Buffer.byteLength(json, "utf8");
  if (bytes > limit) throw new MetadataTooLarge(what, bytes, limit);
  return textToHex(json);
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
