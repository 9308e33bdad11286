import type { Address } from "viem";
import { ApiError, apiError, ERRORS } from "../core/errors.ts";
import type { CollectionsQuery } from "../schemas/collection.ts";
import {
  getCollection,
  getItemEvents,
  getItemMetadata,
  listCollections as listOperation,
} from "../schemas/operations.ts";
import { requestValidator } from "../schemas/validate.ts";
import { listCollections, orderedViews } from "../views/collection-list.ts";
import { findCollection, historyKey, type MockRequest, type MockWorld } from "./data.ts";
export type { MockRequest } from "./data.ts";
import { mockMint } from "./mock-mint.ts";

/** What the simulator would answer: the status and the body it would serialize (compact JSON). */
export interface MockAnswer {
  status: number;
  body: unknown;
}

// The same checks the simulator's routes run (src/routes/handle.ts): the route table's schemas.
const check = {
  listQuery: requestValidator(listOperation.query, "query"),
  collectionParams: requestValidator(getCollection.params, "path"),
  collectionQuery: requestValidator(getCollection.query, "query"),
  eventsParams: requestValidator(getItemEvents.params, "path"),
  eventsQuery: requestValidator(getItemEvents.query, "query"),
  metadataParams: requestValidator(getItemMetadata.params, "path"),
};

const ROUTES: {
  pattern: RegExp;
  method: string;
  answer: (world: MockWorld, params: string[], query: object, request: MockRequest) => Promise<unknown> | unknown;
}[] = [
  { pattern: /^\/api\/v2\/collection\/?$/, method: "GET", answer: (world, _params, query) => list(world, query) },
  {
    pattern: /^\/api\/v2\/collection\/([^/]+)\/?$/,
    method: "GET",
    answer: (world, [address], query) => one(world, address!, query),
  },
  {
    pattern: /^\/api\/v2\/item\/events\/([^/]+)\/([^/]+)\/?$/,
    method: "GET",
    answer: (world, [address, tokenId], query) => history(world, address!, tokenId!, query),
  },
  {
    pattern: /^\/metadata\/([^/]+)\/([^/]+)\/([^/]+)\/?$/,
    method: "GET",
    answer: (world, [chainId, slug, tokenId]) => metadata(world, chainId!, slug!, tokenId!),
  },
  {
    pattern: /^\/api\/v2\/item\/new\/?$/,
    method: "POST",
    answer: (world, _params, query, request) => mockMint(world, query, request),
  },
];

/**
 * Answers an /api/v2 request, or one for an item's metadata (where collection `uri`s point),
 * as the simulator serving the same world would; undefined for any other path.
 */
export async function answer(world: MockWorld, request: MockRequest): Promise<MockAnswer | undefined> {
  if (!request.path.startsWith("/api/v2/") && !/^\/metadata\/[^/]+\/[^/]+\/[^/]+\/?$/.test(request.path))
    return undefined;
  try {
    const matching = ROUTES.map((route) => ({ route, found: route.pattern.exec(request.path) })).filter(
      ({ found }) => found,
    );
    if (matching.length === 0) throw apiError(ERRORS.NOT_FOUND, { what: `Route ${request.method} ${request.path}` });
    // HEAD is served where GET is, as the router does.
    const method = request.method === "HEAD" ? "GET" : request.method;
    const hit = matching.find(({ route }) => route.method === method);
    if (!hit) throw apiError(ERRORS.METHOD_NOT_ALLOWED, {});
    const params = hit.found!.slice(1).map(decodeParam);
    return { status: 200, body: await hit.route.answer(world, params, queryOf(request.search), request) };
  } catch (error) {
    if (error instanceof ApiError) return { status: error.status, body: error.body };
    throw error;
  }
}

function list(world: MockWorld, rawQuery: object) {
  const query = check.listQuery(rawQuery) as CollectionsQuery;
  return listCollections(orderedViews(world.perChain, query.sortBy, query.sortDir), query);
}

function one(world: MockWorld, rawAddress: string, rawQuery: object) {
  const { address } = check.collectionParams({ address: rawAddress });
  const { chainId } = check.collectionQuery(rawQuery);
  const wanted = address.toLowerCase() as Address;
  const found = findCollection(world, wanted, chainId);
  if (!found) throw apiError(ERRORS.NOT_FOUND, { what: `Collection ${wanted}` });
  return { collection: found.collection };
}

function history(world: MockWorld, rawAddress: string, rawTokenId: string, rawQuery: object) {
  const { address, tokenId } = check.eventsParams({ address: rawAddress, tokenId: rawTokenId });
  const { page, perPage, chainId } = check.eventsQuery(rawQuery);
  const collection = address.toLowerCase() as Address;
  const found = findCollection(world, collection, chainId);
  if (!found) throw apiError(ERRORS.NOT_FOUND, { what: `Collection ${collection}` });
  const events = world.histories.get(historyKey(found.collection.chainId, collection, tokenId));
  if (!events) throw apiError(ERRORS.NOT_FOUND, { what: `Item ${tokenId} of collection ${collection}` });
  return { events: events.slice((page - 1) * perPage, page * perPage) };
}

function metadata(world: MockWorld, rawChainId: string, rawSlug: string, rawTokenId: string) {
  const { chainId, slug, tokenId } = check.metadataParams({ chainId: rawChainId, slug: rawSlug, tokenId: rawTokenId });
  if (!world.perChain.some((views) => [...views.values()].some((view) => view.collection.chainId === chainId)))
    throw apiError(ERRORS.NOT_FOUND, { what: `Chain ${chainId}` });
  const found = world.metadata.get(`${chainId}/${slug}/${tokenId}`);
  if (!found) throw apiError(ERRORS.NOT_FOUND, { what: `Metadata of item ${tokenId} in ${slug}` });
  return found;
}

/** The query as Koa parses it (src/http/app.ts): a repeated parameter becomes an array. */
function queryOf(search: string): Record<string, string | string[]> {
  const params = new URLSearchParams(search);
  const query: Record<string, string | string[]> = {};
  for (const key of params.keys()) {
    const values = params.getAll(key);
    Object.defineProperty(query, key, {
      value: values.length <= 1 ? values[0]! : values,
      writable: true,
      enumerable: true,
      configurable: true,
    });
  }
  return query;
}

/** A path parameter as the router decodes it (left as it is when it is not valid percent-encoding). */
function decodeParam(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
