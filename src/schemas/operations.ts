import type { TObject, TSchema } from "@sinclair/typebox";
import {
  CollectionParams,
  CollectionQuery,
  CollectionResponse,
  CollectionsQuery,
  CollectionsResponse,
} from "./collection.ts";
import { ItemEventsParams, ItemEventsQuery, ItemEventsResponse } from "./item-event.ts";
import { IMAGE_FORMATS, ImageParams, ImageQuery, PngImage, SvgImage } from "./image.ts";
import { ITEM_METADATA_PATH, ItemMetadata, ItemMetadataParams } from "./metadata.ts";
import { MintBody, MintQuery, MintResponse } from "./item.ts";
import { ERRORS, type ErrorDescriptor } from "../core/errors.ts";
import { API_KEY_HEADER, defaultsOf } from "./common.ts";

/**
 * One endpoint of the API contract. The server routes and validates by it, the OpenAPI
 * document describes it, and the contract suite builds its requests from it.
 */
export interface Operation {
  method: "get" | "post" | "delete";
  /** As Koa writes it: `/api/v2/collection/:address`. */
  path: string;
  operationId: string;
  tag: string;
  summary: string;
  description: string;
  params?: TObject;
  query?: TObject;
  body?: TSchema;
  /** The largest body its route takes, where that is more than every other route's (the body parser's limit). */
  bodyLimit?: string;
  /** Query parameters the security scheme already describes. */
  authQuery?: readonly string[];
  /**
   * A request header that may carry the `apiKey` query parameter instead (the original's `ALTURA_API_KEY`); both,
   * naming different keys, is 400.
   */
  keyHeader?: string;
  response: TSchema;
  /**
   * The 200 answer's media type when it is not JSON: its bytes are sent as they are, not checked against `response`.
   */
  media?: string;
  /** Every error of the catalog (src/core/errors.ts) it may answer; the server's refusals come on top. */
  errors: readonly ErrorDescriptor[];
}

/**
 * What a read of the chains may meet: a node (--rpc-url) down or replaced, the world loading, the simulator stopping.
 */
export const CHAIN_DOWN = [ERRORS.CHAIN_DOWN, ERRORS.CHAIN_REPLACED, ERRORS.LOADING, ERRORS.SHUTTING_DOWN] as const;

/** What a node the simulator did not start may answer a write instead of taking it (src/chain/node/writer.ts). */
export const NODE_REFUSED = [ERRORS.NONCE_CONFLICT, ERRORS.TRANSACTION_REFUSED, ERRORS.WALLET_UNFUNDED] as const;

/** Keeps each operation's own schema types, so a handler's input and answer are typed from them. */
export const operation = <const T extends Operation>(op: T): T => op;

export const mintItem = operation({
  method: "post",
  path: "/api/v2/item/new",
  operationId: "mintItem",
  tag: "Items",
  summary: "Mint a new item",
  description:
    "Creates the next token id(s) in the collection and mints `initialSupply` to `recipient`, signed by the API " +
    "key's developer wallet. " +
    "Non-stackable items become `initialSupply` token ids of supply one. Answers once the mint is indexed, so the " +
    "item's history shows it at once. " +
    "Form posts (`application/x-www-form-urlencoded`, `item` as a JSON string) are accepted too.",
  query: MintQuery,
  authQuery: ["apiKey"],
  keyHeader: API_KEY_HEADER,
  body: MintBody,
  response: MintResponse,
  errors: [
    ERRORS.INVALID_REQUEST,
    ERRORS.UNKNOWN_CHAIN,
    ERRORS.INVALID_JSON,
    ERRORS.API_KEY_REQUIRED,
    ERRORS.API_KEY_CONFLICT,
    ERRORS.UNKNOWN_API_KEY,
    ERRORS.WALLET_NOT_MINTER,
    ERRORS.HOST_NOT_ALLOWED,
    ERRORS.ORIGIN_NOT_ALLOWED,
    ERRORS.NOT_FOUND,
    ERRORS.COLLECTION_ON_OTHER_CHAIN,
    ERRORS.MINT_DROPPED,
    ...NODE_REFUSED,
    ERRORS.BODY_TOO_LARGE,
    ERRORS.METADATA_TOO_LARGE,
    ERRORS.UNSUPPORTED_MEDIA_TYPE,
    ERRORS.UNSUPPORTED_ENCODING,
    ERRORS.SUPPLY_ABOVE_MAX,
    ERRORS.CONTRACT_RULE,
    ERRORS.TOO_MANY_UNKNOWN_KEYS,
    ERRORS.CHAIN_UNAVAILABLE,
    ...CHAIN_DOWN,
    ERRORS.MINT_PENDING,
    ERRORS.STORAGE_FULL,
  ],
});

export const getItemEvents = operation({
  method: "get",
  path: "/api/v2/item/events/:address/:tokenId",
  operationId: "getItemEvents",
  tag: "Items",
  summary: "Get an item's history",
  description:
    "Mint, transfers, listings, delistings, price updates and sales of one item, newest first (block, then log " +
    "index, descending). " +
    "Transfer ids are `<Event>-<blockNumber>-<logIndex>`, marketplace ids " +
    "`<Event>-<listingId>-<transactionHash>-<logIndex>`.",
  params: ItemEventsParams,
  query: ItemEventsQuery,
  response: ItemEventsResponse,
  keyHeader: API_KEY_HEADER,
  errors: [ERRORS.INVALID_REQUEST, ERRORS.API_KEY_CONFLICT, ERRORS.NOT_FOUND, ...CHAIN_DOWN],
});

export const getCollection = operation({
  method: "get",
  path: "/api/v2/collection/:address",
  operationId: "getCollection",
  tag: "Collections",
  summary: "Get one collection",
  description: "One collection by address (any case). `chainId` picks the chain when the address exists on several.",
  params: CollectionParams,
  query: CollectionQuery,
  response: CollectionResponse,
  keyHeader: API_KEY_HEADER,
  errors: [ERRORS.INVALID_REQUEST, ERRORS.API_KEY_CONFLICT, ERRORS.NOT_FOUND, ...CHAIN_DOWN],
});

export const listCollections = operation({
  method: "get",
  path: "/api/v2/collection",
  operationId: "listCollections",
  tag: "Collections",
  summary: "Get many collections",
  description:
    "Every chain's collections, filtered, sorted and paged. Any collection field is an exact filter (`chainId=56`, " +
    "`genre=Gaming`); " +
    "a tie in the sort key is broken by address, so pages never overlap or skip. `count` is the number of matches " +
    "over all pages.",
  query: CollectionsQuery,
  response: CollectionsResponse,
  keyHeader: API_KEY_HEADER,
  errors: [ERRORS.INVALID_REQUEST, ERRORS.API_KEY_CONFLICT, ...CHAIN_DOWN],
});

/**
 * What the HTTP server itself answers on every path before any operation sees the request, with
 * the same JSON error body (src/http/error-exit.ts). The OpenAPI document lists them with each
 * operation; a client may meet them on any.
 */
export const SERVER_REFUSALS = [
  ERRORS.NOT_HTTP,
  ERRORS.MISSING_HOST,
  ERRORS.REQUEST_TIMEOUT,
  ERRORS.EXPECTATION_FAILED,
  ERRORS.HEADERS_TOO_LARGE,
] as const;

/** Every status an operation may answer: 200, its own errors, and the server's refusals. */
export function documentedStatuses(operation: Operation): number[] {
  return [...new Set([200, ...[...operation.errors, ...SERVER_REFUSALS].map((error) => error.status)])].sort(
    (a, b) => a - b,
  );
}

const tag = "Control";

/**
 * What the control API's guard answers before any operation (src/control/guard.ts): the admin token, the Host, the
 * browser origin, the body's type.
 */
const GUARD = [
  ERRORS.ADMIN_TOKEN_REQUIRED,
  ERRORS.HOST_NOT_ALLOWED,
  ERRORS.ORIGIN_NOT_ALLOWED,
  ERRORS.CONTROL_OFF,
  ERRORS.UNSUPPORTED_MEDIA_TYPE,
  ERRORS.UNSUPPORTED_ENCODING,
];

/** What the body parser answers on a POST, whatever the operation does with the body. */
const BODY_READ = [ERRORS.INVALID_JSON, ERRORS.BODY_TOO_LARGE];

/** Every request meets the app's readiness and its shutdown drain. */
const UNAVAILABLE = [ERRORS.LOADING, ERRORS.SHUTTING_DOWN];

/** A control operation as a table writes it: its key is its operationId, and its tag is the control API's. */
type ControlEntry = Omit<Operation, "operationId" | "tag">;

type ControlOperations<T> = {
  [Id in keyof T & string]: Omit<T[Id], "errors"> & { operationId: Id; tag: typeof tag; errors: ErrorDescriptor[] };
};

/** Control operations by id, in the table's order: each with its own errors and those every control request may meet. */
export function controlOperations<const T extends Record<string, ControlEntry>>(table: T): ControlOperations<T> {
  const described = Object.entries(table).map(([operationId, op]) => {
    const errors = [...new Set([...GUARD, ...(op.method === "post" ? BODY_READ : []), ...op.errors, ...UNAVAILABLE])];
    return [operationId, { ...op, operationId, tag, errors }];
  });
  return Object.fromEntries(described) as ControlOperations<T>;
}

/** Every endpoint of the API, in the order the document lists them. */
export const OPERATIONS = [mintItem, getItemEvents, getCollection, listCollections] as const;

/** What a collection's `uri` points at: served beside the API for wallets, not part of the v2 API. */
export const getItemMetadata = operation({
  method: "get",
  path: ITEM_METADATA_PATH,
  operationId: "getItemMetadata",
  tag: "Items",
  summary: "Get an item's metadata",
  description: "The JSON metadata of an item, at `<uri>/<tokenId>` of its collection.",
  params: ItemMetadataParams,
  response: ItemMetadata,
  errors: [ERRORS.INVALID_REQUEST, ERRORS.NOT_FOUND, ERRORS.LOADING, ERRORS.SHUTTING_DOWN],
});

const IMAGE_ERRORS = [ERRORS.INVALID_REQUEST, ERRORS.LOADING, ERRORS.SHUTTING_DOWN];

/**
 * The simulator's own picture of a seed, as PNG: what the worlds' `image` and `imageUrl` point at (game engines load
 * PNG).
 */
export const getImagePng = operation({
  method: "get",
  path: "/images/:seed.png",
  operationId: "getImagePng",
  tag: "Images",
  summary: "A PNG image",
  description:
    "A deterministic picture (an identicon) drawn from the seed: the same seed and size give the same bytes on every " +
    "machine, offline. " +
    "The shipped worlds' collection `image` and item `imageUrl` point here.",
  params: ImageParams,
  query: ImageQuery,
  response: PngImage,
  media: IMAGE_FORMATS.png,
  errors: IMAGE_ERRORS,
});

/** The same picture as SVG, for browsers. */
export const getImageSvg = operation({
  method: "get",
  path: "/images/:seed.svg",
  operationId: "getImageSvg",
  tag: "Images",
  summary: "An SVG image",
  description: "The picture `/images/{seed}.png` shows, as SVG (for browsers: it scales without blur).",
  params: ImageParams,
  query: ImageQuery,
  response: SvgImage,
  media: IMAGE_FORMATS.svg,
  errors: IMAGE_ERRORS,
});

/** The image routes, in the order the document lists them. */
export const IMAGE_OPERATIONS = [getImagePng, getImageSvg] as const;

/** Everything the server routes: the API, the metadata its collections point at, and the images. */
export const SERVED_OPERATIONS = [...OPERATIONS, getItemMetadata, ...IMAGE_OPERATIONS] as const;

export type OperationId = (typeof SERVED_OPERATIONS)[number]["operationId"];

/** The operation's path with its parameters filled in: `/api/v2/collection/0xab…`. */
export function pathOf(operation: Operation, params: Record<string, string | number> = {}): string {
  return operation.path.replace(/:([A-Za-z0-9_]+)/g, (_, name: string) => {
    if (params[name] === undefined) throw new Error(`${operation.operationId}: no value for path parameter ${name}`);
    return encodeURIComponent(String(params[name]));
  });
}

/** The query parameters the server fills in when a caller leaves them out, with their values. */
export function queryDefaults(operation: Operation): Record<string, unknown> {
  return operation.query ? defaultsOf(operation.query) : {};
}
