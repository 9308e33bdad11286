import type { TObject, TSchema } from "@sinclair/typebox";
import { CollectionParams, CollectionQuery, CollectionResponse, CollectionsQuery, CollectionsResponse } from "../schemas/collection.ts";
import { ItemEventsParams, ItemEventsQuery, ItemEventsResponse } from "../schemas/item-event.ts";
import { MintBody, MintQuery, MintResponse } from "../schemas/mint.ts";

/** One endpoint as the document describes it; the schemas are the ones the routes validate with. */
export interface Operation {
  method: "get" | "post";
  /** As Koa writes it: `/api/v2/collection/:address`. */
  path: string;
  operationId: string;
  tag: string;
  summary: string;
  description: string;
  params?: TObject;
  query?: TObject;
  body?: TSchema;
  /** Query parameters the security scheme already describes. */
  authQuery?: string[];
  response: TSchema;
  errors: Record<number, string>;
}

const CHAIN_DOWN = { 503: "The chain is unavailable." };

export const OPERATIONS: Operation[] = [
  {
    method: "post",
    path: "/api/v2/item/new",
    operationId: "mintItem",
    tag: "Items",
    summary: "Mint a new item",
    description:
      "Creates the next token id(s) in the collection and mints `initialSupply` to `recipient`, signed by the API key's developer wallet. " +
      "Non-stackable items become `initialSupply` token ids of supply one. Answers once the mint is indexed, so the item's history shows it at once. " +
      "Form posts (`application/x-www-form-urlencoded`, `item` as a JSON string) are accepted too.",
    query: MintQuery,
    authQuery: ["apiKey"],
    body: MintBody,
    response: MintResponse,
    errors: {
      400: "The body is invalid (every problem is listed in `errors`), or the chain is not served.",
      401: "The apiKey is missing or unknown.",
      403: "The developer wallet is not authorized (minter role) on the collection.",
      404: "No such collection on that chain.",
      413: "The body is too large.",
      415: "The body is neither JSON nor a form.",
      422: "The collection contract refused the mint (supply, royalty cap).",
      ...CHAIN_DOWN,
    },
  },
  {
    method: "get",
    path: "/api/v2/item/events/:address/:tokenId",
    operationId: "getItemEvents",
    tag: "Items",
    summary: "Get an item's history",
    description:
      "Mint, transfers, listings, delistings, price updates and sales of one item, newest first (block, then log index, descending). " +
      "Transfer ids are `<Event>-<blockNumber>-<logIndex>`, marketplace ids `<Event>-<listingId>-<transactionHash>-<logIndex>`.",
    params: ItemEventsParams,
    query: ItemEventsQuery,
    response: ItemEventsResponse,
    errors: { 400: "A path or query parameter is invalid.", 404: "No such collection, or no such item in it.", ...CHAIN_DOWN },
  },
  {
    method: "get",
    path: "/api/v2/collection/:address",
    operationId: "getCollection",
    tag: "Collections",
    summary: "Get one collection",
    description: "One collection by address (any case). `chainId` picks the chain when the address exists on several.",
    params: CollectionParams,
    query: CollectionQuery,
    response: CollectionResponse,
    errors: { 400: "The address is malformed.", 404: "No such collection.", ...CHAIN_DOWN },
  },
  {
    method: "get",
    path: "/api/v2/collection",
    operationId: "listCollections",
    tag: "Collections",
    summary: "Get many collections",
    description:
      "Every chain's collections, filtered, sorted and paged. Any collection field is an exact filter (`chainId=56`, `genre=Gaming`); " +
      "a tie in the sort key is broken by address, so pages never overlap or skip. `count` is the number of matches over all pages.",
    query: CollectionsQuery,
    response: CollectionsResponse,
    errors: { 400: "An unknown parameter, or a bad value (perPage outside 1..100, page below 1, an unknown sortBy field).", ...CHAIN_DOWN },
  },
];
