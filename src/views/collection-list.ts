import {
  NON_FILTER_PARAMETERS,
  type CollectionsQuery,
  type CollectionsResponse,
  type CollectionField,
} from "../schemas/collection.ts";
import type { ReadModels } from "../indexer/models.ts";
import { collectionViews, versionViews, type CollectionView } from "./collections.ts";

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
 * Every chain's collections in one order, with a stable tie-break (address, then chain) so that pages never overlap or
 * skip. An order is kept with the first chain's version views until a chain's models move.
 */
export function orderedViews(
  from: readonly ReadModels[],
  sortBy: CollectionField,
  sortDir: "asc" | "desc",
): readonly CollectionView[] {
  if (from.length === 0) return [];
  const [first, ...others] = from.map(versionViews);
  const key = `${sortBy}:${sortDir}:${from.map((models) => models.facts.chainId).join(",")}`;
  const kept = first!.orders.get(key);
  if (kept && kept.others.every((views, i) => views === others[i])) return kept.ordered;
  const direction = sortDir === "asc" ? 1 : -1;
  const ordered = from
    .flatMap((models) => [...collectionViews(models).values()])
    .sort(
      (a, b) =>
        direction * compare(a.collection[sortBy], b.collection[sortBy]) ||
        compare(a.collection.address, b.collection.address) ||
        a.collection.chainId - b.collection.chainId,
    );
  first!.orders.set(key, { others, ordered });
  return ordered;
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
