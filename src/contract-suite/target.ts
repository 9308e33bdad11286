/** Where the suite points and what it may assume or do there. */
export interface Target {
  baseUrl: string;
  apiKey?: string;
  /** A collection known to exist, and one of its items with a history. */
  collection?: string;
  tokenId?: number;
  chainId?: number;
  /** Who receives what a write mints; defaults to the collection's owner. */
  recipient?: string;
  /** Mint on the target. Never by default: the target may be a real deployment. */
  allowWrites: boolean;
}

export const paths = {
  collections: "/api/v2/collection",
  collection: (address: string) => `/api/v2/collection/${address}`,
  itemEvents: (address: string, tokenId: number | string) => `/api/v2/item/events/${address}/${tokenId}`,
  mint: "/api/v2/item/new",
};

/** The spec's defaults for both paged endpoints and the list's sort. */
export const DEFAULTS = { perPage: 24, page: 1, sortBy: "mintDate", sortDir: "desc" } as const;

/** The largest page the suite asks for; the schemas allow up to 100. */
export const LARGEST_PAGE = 100;
