import {
  NON_FILTER_PARAMETERS,
  type CollectionsQuery,
  type CollectionsResponse,
  type CollectionField,
} from "../schemas/collection.ts";
import type { CollectionView, collectionViews } from "./collections.ts";

const NOT_FILTERS = new Set<string>(NON_FILTER_PARAMETERS);

/**
 * Filter and page collections as the list endpoint does, from views already in the
 * requested order. `count` is every match, not the page.
 */
export function listCollections(ordered: readonly CollectionView[], query: CollectionsQuery): CollectionsResponse {
  const filters = Object.entries(query).filter(([field, value]) => !NOT_FILTERS.has(field) && value !== undefined);
  const matches = filters.length
    ? ordered.filter((view) => filters.every(([field, value]) => matchesFilter(view, field, value)))
    : ordered;
  const start = (query.page - 1) * query.perPage;
  return {
    collections: matches.slice(start, start + query.perPage).map((view) => view.summary),
    count: matches.length,
  };
}

/**
 * Every chain's collections in one order, with a stable tie-break (address, then chain)
 * so that pages never overlap or skip. An order is kept until a chain's views change.
 */
export function orderedViews(
  perChain: readonly ChainViews[],
  sortBy: CollectionField,
  sortDir: "asc" | "desc",
): readonly CollectionView[] {
  if (perChain.length === 0) return [];
  let cached = orders.get(perChain[0]);
  if (
    !cached ||
    cached.perChain.length !== perChain.length ||
    cached.perChain.some((views, i) => views !== perChain[i])
  ) {
    cached = { perChain, byOrder: new Map() };
    orders.set(perChain[0], cached);
  }
  const key = `${sortBy}:${sortDir}`;
  let ordered = cached.byOrder.get(key);
  if (!ordered)
    cached.byOrder.set(
      key,
      (ordered = sortViews(
        perChain.flatMap((views) => [...views.values()]),
        sortBy,
        sortDir,
      )),
    );
  return ordered;
}

type ChainViews = ReturnType<typeof collectionViews>;

// Keyed by the first chain's views: each simulator has its own, and a chain's views are replaced when they change.
const orders = new WeakMap<ChainViews, { perChain: readonly ChainViews[]; byOrder: Map<string, CollectionView[]> }>();

function sortViews(views: CollectionView[], sortBy: CollectionField, sortDir: "asc" | "desc"): CollectionView[] {
  const direction = sortDir === "asc" ? 1 : -1;
  return views.sort(
    (a, b) =>
      direction * compare(a.collection[sortBy], b.collection[sortBy]) ||
      compare(a.collection.address, b.collection.address) ||
      a.collection.chainId - b.collection.chainId,
  );
}

function matchesFilter(view: CollectionView, field: string, wanted: unknown): boolean {
  if (field === "isVerified") return view.isVerified === wanted;
  const actual = view.collection[field as CollectionField];
  if (field === "address" || field === "ownerAddress") return actual === String(wanted).toLowerCase();
  return actual === wanted;
}

function compare(a: string | number, b: string | number): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
