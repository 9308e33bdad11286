import type { Static } from "@sinclair/typebox";
import type { ApiKeyIn } from "./http.ts";
import { CollectionsQuery } from "../schemas/collection.ts";
import {
  getCollection,
  getItemEvents,
  listCollections,
  mintItem,
  pathOf,
  queryDefaults,
} from "../schemas/operations.ts";

/** Where the suite points and what it may assume or do there. */
export interface Target {
  baseUrl: string;
  apiKey?: string;
  /** Where the API key goes: the `apiKey` query parameter (default) or the ALTURA_API_KEY header. */
  apiKeyIn?: ApiKeyIn;
  /** A collection known to exist, and one of its items with a history. */
  collection?: string;
  tokenId?: number;
  chainId?: number;
  /** The collection the one write mints on, one the API key may mint on; defaults to `collection`. */
  mintCollection?: string;
  /** Who receives what a write mints; defaults to the collection's owner. */
  recipient?: string;
  /** Mint on the target. Never by default: the target may be a real deployment. */
  allowWrites: boolean;
}

/** Request paths, from the route table. */
export const paths = {
  collections: pathOf(listCollections),
  collection: (address: string) => pathOf(getCollection, { address }),
  itemEvents: (address: string, tokenId: number | string) => pathOf(getItemEvents, { address, tokenId }),
  mint: pathOf(mintItem),
};

/** What the schemas fill in when the list is asked without paging or sort. */
export const DEFAULTS = queryDefaults(listCollections) as Required<
  Pick<Static<typeof CollectionsQuery>, "perPage" | "page" | "sortBy" | "sortDir">
>;

/** What the schemas fill in when an item's history is asked without paging. */
export const EVENTS_DEFAULTS = queryDefaults(getItemEvents) as { perPage: number; page: number };

/** The largest page the suite asks for: the schemas' maximum perPage. */
export const LARGEST_PAGE: number = CollectionsQuery.properties.perPage.maximum!;
