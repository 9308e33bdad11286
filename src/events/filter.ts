import type { Address } from "viem";
import type { EventKind } from "../schemas/events.ts";
import type { FeedEntry } from "./entries.ts";

/** Which events a listener wants; a filter left out lets every event through. */
export interface EventFilter {
  chainId?: number;
  collection?: Address;
  tokenId?: number;
  kinds?: ReadonlySet<EventKind>;
}

/** The filter of a query or a webhook's body (addresses in any case, kinds as a list or comma-separated). */
export function eventFilter(given: {
  chainId?: number;
  collection?: string;
  tokenId?: number;
  kinds?: string | readonly string[];
}): EventFilter {
  const kinds = typeof given.kinds === "string" ? given.kinds.split(",") : given.kinds;
  return {
    ...(given.chainId === undefined ? {} : { chainId: given.chainId }),
    ...(given.collection === undefined ? {} : { collection: given.collection.toLowerCase() as Address }),
    ...(given.tokenId === undefined ? {} : { tokenId: given.tokenId }),
    ...(kinds === undefined ? {} : { kinds: new Set(kinds as EventKind[]) }),
  };
}

/**
 * Whether the entry passes every filter given (a removal passes as the kind it takes back; a collection has no token
 * id).
 */
export function matches(filter: EventFilter, entry: FeedEntry): boolean {
  return (
    (filter.chainId === undefined || filter.chainId === entry.chainId) &&
    (filter.collection === undefined || filter.collection === entry.collection) &&
    (filter.tokenId === undefined || filter.tokenId === entry.tokenId) &&
    (filter.kinds === undefined || (entry.kind !== undefined && filter.kinds.has(entry.kind)))
  );
}
