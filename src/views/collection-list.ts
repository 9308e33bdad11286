import type { CollectionSummary, CollectionsQuery, CollectionsResponse, CollectionField } from "../schemas/collection.ts";
import type { CollectionView } from "./collections.ts";

const PAGING_FIELDS = new Set(["perPage", "page", "sortBy", "sortDir", "apiKey"]);

/** Filter, sort and page collections as the list endpoint does. `count` is every match, not the page. */
export function listCollections(views: CollectionView[], query: CollectionsQuery): CollectionsResponse {
  const filters = Object.entries(query).filter(([field, value]) => !PAGING_FIELDS.has(field) && value !== undefined);
  const matches = views.filter((view) => filters.every(([field, value]) => matchesFilter(view, field, value)));
  const direction = query.sortDir === "asc" ? 1 : -1;
  const sortBy = query.sortBy as CollectionField;
  matches.sort(
    (a, b) =>
      direction * compare(a.collection[sortBy], b.collection[sortBy]) ||
      compare(a.collection.address, b.collection.address) ||
      a.collection.chainId - b.collection.chainId,
  );
  const start = (query.page - 1) * query.perPage;
  return {
    collections: matches.slice(start, start + query.perPage).map(({ collection }) => withoutImageUrl(collection)),
    count: matches.length,
  };
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

function withoutImageUrl({ imageUrl: _imageUrl, ...summary }: CollectionView["collection"]): CollectionSummary {
  return summary;
}
