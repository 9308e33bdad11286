import fc from "fast-check";
import { COLLECTION_FIELDS } from "../../schemas/collection.ts";
import type { Operation } from "../../schemas/operations.ts";
import { ZERO_ADDRESS } from "../answers/page-rules.ts";
import type { HeaderList } from "./headers.ts";
import { otherNotation } from "./values.ts";
import type { Known, KnownCollection, KnownItem, MintPlace } from "./world.ts";

// Requests the schemas accept, built from what the target serves (its collections, their items,
// the key and collection it may mint on), at and inside the boundaries; now and then one number
// written another way (0x10, 1e1), the near miss a lenient server accepts.

/** A request before its path is filled in: path parameters, query, body and headers. */
export interface Draft {
  /** The path parameters as generated, before encoding. */
  params: [string, string][];
  query: [string, string][];
  /** In order, a name possibly repeated; a `host` of "" means no Host header at all. */
  headers: HeaderList;
  body?: string;
}

/** A number as query or path text: plain decimal, now and then in another notation (which the schemas refuse). */
const decimal = (numbers: fc.Arbitrary<number>) =>
  fc.oneof(
    { withCrossShrink: true },
    { weight: 12, arbitrary: numbers.map(String) },
    { weight: 3, arbitrary: fc.tuple(numbers, NOTATION).map(([value, form]) => otherNotation(value, form)) },
  );
/** Which other notation: hexadecimal (the commonest slip: 0x10, 0x38) as often as two others together. */
const NOTATION = fc.constantFrom(0, 0, 1, 2, 3, 4, 5);
/** An address in any case the schemas accept. */
const anyCase = (address: string) => fc.constantFrom(address, `0x${address.slice(2).toUpperCase()}`);
const maybe = <T>(value: fc.Arbitrary<T>, freq = 2) => fc.option(value, { nil: undefined, freq });
/** The pairs whose value was drawn (a `maybe` that drew nothing gives undefined). */
const present = (pairs: [string, string | undefined][]) =>
  pairs.filter((pair): pair is [string, string] => pair[1] !== undefined);

// Small pages mostly, so that pages after the first still hold something.
const PER_PAGE = fc.oneof(
  { weight: 3, arbitrary: fc.integer({ min: 1, max: 10 }) },
  { weight: 1, arbitrary: fc.integer({ min: 11, max: 30 }) },
  { weight: 1, arbitrary: fc.constantFrom(1, 24, 100) },
);
const PAGE = fc.oneof(
  { weight: 1, arbitrary: fc.constant(1) },
  { weight: 3, arbitrary: fc.integer({ min: 2, max: 4 }) },
  { weight: 1, arbitrary: fc.integer({ min: 5, max: 100_000 }) },
);
const paging = fc.tuple(maybe(decimal(PER_PAGE)), maybe(decimal(PAGE), 3)).map(([perPage, page]) =>
  present([
    ["perPage", perPage],
    ["page", page],
  ]),
);

/** A filter that matches: a field of a listed collection with that collection's own value. */
function matchingFilter(collections: KnownCollection[]): fc.Arbitrary<[string, string]> {
  const fields = ["chainId", "genre", "name", "address", "ownerAddress", "slug", "holders", "mintDate"] as const;
  return fc
    .tuple(fc.constantFrom(...collections), fc.constantFrom(...fields))
    .chain(([collection, field]) =>
      field === "address" || field === "ownerAddress"
        ? anyCase(String(collection.row[field])).map((value): [string, string] => [field, value])
        : fc.constant<[string, string]>([field, String(collection.row[field])]),
    );
}

function listDraft(known: Known): fc.Arbitrary<Draft> {
  const sortBy = maybe(fc.constantFrom(...COLLECTION_FIELDS)).map((field): [string, string | undefined] => [
    "sortBy",
    field,
  ]);
  const sortDir = maybe(fc.constantFrom("asc", "desc")).map((dir): [string, string | undefined] => ["sortDir", dir]);
  const filters = fc.oneof(
    { weight: 5, arbitrary: matchingFilter(known.collections) },
    { weight: 1, arbitrary: fc.constantFrom<[string, string]>(["isVerified", "true"], ["isVerified", "false"]) },
  );
  // A filter narrows the list to a page or two; most lists are unfiltered, to page through.
  const filter = known.collections.length
    ? fc.oneof({ weight: 2, arbitrary: fc.constant([]) }, { weight: 1, arbitrary: filters.map((pair) => [pair]) })
    : fc.constant([]);
  return fc.tuple(paging, sortBy, sortDir, filter).map(([pages, by, dir, chosen]) => ({
    params: [],
    query: [...pages, ...present([by, dir]), ...chosen],
    headers: [],
  }));
}

function historyDraft(items: KnownItem[]): fc.Arbitrary<Draft> {
  return fc.constantFrom(...items).chain((item) =>
    fc
      .tuple(
        anyCase(item.address),
        decimal(fc.constant(item.tokenId)),
        paging,
        maybe(decimal(fc.constant(item.chainId))),
      )
      .map(([address, tokenId, pages, chainId]) => ({
        params: [
          ["address", address],
          ["tokenId", tokenId],
        ] as [string, string][],
        query: [...pages, ...present([["chainId", chainId]])],
        headers: [],
      })),
  );
}

function collectionDraft(known: Known): fc.Arbitrary<Draft> {
  return fc.constantFrom(...known.collections).chain((collection) =>
    fc
      .tuple(anyCase(collection.address), maybe(decimal(fc.constantFrom(...known.chainIds))))
      .map(([address, chainId]) => ({
        params: [["address", address]] as [string, string][],
        query: present([["chainId", chainId]]),
        headers: [],
      })),
  );
}

function metadataDraft(known: Known): fc.Arbitrary<Draft> {
  const slugOf = new Map(known.collections.map((collection) => [collection.address, collection.slug]));
  return fc.constantFrom(...known.items).chain((item) =>
    decimal(fc.oneof(fc.constant(item.tokenId), fc.integer({ min: 1, max: item.tokenId + 2 }))).map((tokenId) => ({
      params: [
        ["chainId", String(item.chainId)],
        ["slug", slugOf.get(item.address) ?? "x"],
        ["tokenId", tokenId],
      ] as [string, string][],
      query: [],
      headers: [],
    })),
  );
}

/**
 * An item definition the schema accepts: supplies and royalties at and inside the bounds, sometimes ones the contract
 * refuses (royalty 30%, max below initial).
 */
const validItem = fc
  .record({
    name: fc.oneof(
      { weight: 8, arbitrary: fc.string({ minLength: 1, maxLength: 30 }) },
      { weight: 1, arbitrary: fc.constant("x".repeat(200)) },
    ),
    isStackable: maybe(fc.boolean()),
    supply: fc.oneof(
      { weight: 8, arbitrary: fc.integer({ min: 1, max: 5 }) },
      { weight: 1, arbitrary: fc.constantFrom(1, 100) },
    ),
    headroom: maybe(fc.integer({ min: -1, max: 1000 })),
    royaltyFee: maybe(
      fc.oneof(
        { weight: 8, arbitrary: fc.integer({ min: 0, max: 299 }) },
        { weight: 1, arbitrary: fc.constantFrom(0, 299, 300, 1000) },
      ),
    ),
    description: maybe(fc.string({ maxLength: 60 })),
    imageUrl: maybe(fc.constantFrom("https://example.com/a.png", "")),
    fileType: maybe(fc.constantFrom("image/png", "image/svg+xml", "video/mp4")),
    isConsumable: maybe(fc.boolean()),
    properties: maybe(
      fc.array(
        fc.record({
          name: fc.string({ minLength: 1, maxLength: 20 }),
          value: fc.string({ maxLength: 20 }),
          static: fc.boolean(),
        }),
        { maxLength: 3 },
      ),
    ),
  })
  .map(({ supply, headroom, isStackable, ...rest }) => {
    const item: Record<string, unknown> = {
      initialSupply: supply,
      ...(isStackable === undefined ? {} : { isStackable }),
    };
    if (headroom !== undefined) item.maximumSupply = Math.max(1, supply + headroom);
    for (const [name, value] of Object.entries(rest)) if (value !== undefined) item[name] = value;
    return item;
  });

function mintDraft(mint: MintPlace): fc.Arbitrary<Draft> {
  const recipient = fc.oneof(
    { weight: 12, arbitrary: fc.constantFrom(...mint.recipients) },
    { weight: 1, arbitrary: fc.constant(ZERO_ADDRESS) },
  );
  return fc.tuple(anyCase(mint.collection), recipient, validItem).map(([collectionAddress, to, item]) => ({
    params: [],
    query: [["apiKey", mint.apiKey]] as [string, string][],
    body: JSON.stringify({ collectionAddress, recipient: to, chainId: mint.chainId, item }),
    headers: [["content-type", "application/json"]] as HeaderList,
  }));
}

/**
 * Valid requests for `operation` from what the target serves, or undefined when it serves nothing to build them from.
 */
export function validDrafts(operation: Operation, known: Known): fc.Arbitrary<Draft> | undefined {
  switch (operation.operationId) {
    case "listCollections":
      return listDraft(known);
    case "getCollection":
      return known.collections.length ? collectionDraft(known) : undefined;
    case "getItemEvents":
      return known.items.length ? historyDraft(known.items) : undefined;
    case "getItemMetadata":
      return known.items.length ? metadataDraft(known) : undefined;
    case "mintItem":
      return known.mint && mintDraft(known.mint);
    default:
      return undefined;
  }
}
