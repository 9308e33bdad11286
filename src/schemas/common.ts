import { Type, type ObjectOptions, type SchemaOptions, type TObject, type TProperties } from "@sinclair/typebox";

/** One of a fixed set of strings, as a JSON Schema `enum` (one clear error, not one per value). */
export function StringEnum<const Values extends readonly string[]>(values: Values, options: SchemaOptions = {}) {
  return Type.Unsafe<Values[number]>({ type: "string", enum: [...values], ...options });
}

/** An object of the contract: it takes no property but those it names (a misspelt one is refused, not ignored). */
export function Closed<T extends TProperties>(properties: T, options: ObjectOptions = {}): TObject<T> {
  return Type.Object(properties, { additionalProperties: false, ...options });
}

/** A closed object by name: a component of the OpenAPI document, and compiled once however many answers embed it. */
export function Named<T extends TProperties>($id: string, properties: T): TObject<T> {
  return Closed(properties, { $id });
}

/** The defaults an object's schema gives its properties, by name. */
export function defaultsOf(schema: TObject): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(schema.properties)
      .filter(([, property]) => "default" in property)
      .map(([name, property]) => [name, property.default]),
  );
}

/** Integers past 2^53 lose precision in JSON; no page or token id of this service gets there. */
export const SafeInteger = { minimum: 0, maximum: Number.MAX_SAFE_INTEGER } as const;

/** An address as callers may write it: any case. */
export const AddressInput = Type.String({
  pattern: "^0x[0-9a-fA-F]{40}$",
  description: "0x-prefixed 20-byte hex address",
});

/** An address as the service writes it: lower case. */
export const Address = Type.String({
  pattern: "^0x[0-9a-f]{40}$",
  description: "lower-case 0x-prefixed 20-byte hex address",
});

export const TxHash = Type.String({ pattern: "^0x[0-9a-f]{64}$", description: "transaction hash" });

export const ChainId = Type.Integer({ ...SafeInteger, minimum: 1, description: "EVM chain id" });

/** itemRef: `<chainId>-<collectionAddress>-<tokenId>`. */
export const ItemRef = Type.String({ pattern: "^[0-9]+-0x[0-9a-f]{40}-[0-9]+$" });

export const PerPage = Type.Integer({ minimum: 1, maximum: 100, default: 24, description: "records per page" });
export const Page = Type.Integer({
  ...SafeInteger,
  minimum: 1,
  default: 1,
  description: "page number; skips (page - 1) * perPage records",
});

/** The request header the original also takes the API key in, wherever it takes the `apiKey` query parameter. */
export const API_KEY_HEADER = "ALTURA_API_KEY";

/** Reads take no key, but clients that always send one are not refused. */
export const OptionalApiKey = Type.Optional(Type.String({ description: "ignored on reads" }));
