import { LARGEST_PAGE, paths, type Target } from "../target.ts";
import type { KnownValues } from "./values.ts";

/** A collection as the target lists it: its row, kept whole (its values make filters that match). */
const knownCollection = (row: Record<string, unknown>) => ({
  address: String(row.address),
  chainId: Number(row.chainId),
  slug: String(row.slug),
  uri: String(row.uri),
  ownerAddress: String(row.ownerAddress),
  row,
});
export type KnownCollection = ReturnType<typeof knownCollection>;

/** An item the target has: a collection and one of its token ids. */
export interface KnownItem {
  address: string;
  chainId: number;
  tokenId: number;
}

/** Where --allow-writes may mint: the key, a collection it may mint on, and whom to mint to. */
export interface MintPlace {
  apiKey: string;
  collection: string;
  chainId: number;
  recipients: string[];
}

/** What the fuzzer learnt of the target before the run, so that valid requests use real values. */
export interface Known extends KnownValues {
  collections: KnownCollection[];
  /** Collections looked into, with the first token id each did not have yet. */
  nextTokenIds: Map<string, number>;
  items: KnownItem[];
  mint?: MintPlace;
  /** The collections' `uri`s point at the target itself, so it serves item metadata (`<uri>/<tokenId>`). */
  servesMetadata: boolean;
}

/** How many collections the fuzzer looks into for items (each costs a few requests). */
const COLLECTIONS_WITH_ITEMS = 5;
/** Token ids taken from each of them: the first few and the last. */
const ITEMS_PER_COLLECTION = 4;

export async function allCollections(base: string): Promise<KnownCollection["row"][]> {
  const found: KnownCollection["row"][] = [];
  for (let page = 1; ; page += 1) {
    const body = (await fetch(
      `${base}${paths.collections}?perPage=${LARGEST_PAGE}&page=${page}&sortBy=address&sortDir=asc`,
    ).then((r) => r.json())) as { collections: KnownCollection["row"][]; count: number };
    found.push(...body.collections);
    if (body.collections.length === 0 || found.length >= body.count) return found;
  }
}

/** Real values for the generated requests: the target's collections, some of their items, where it may mint. */
export async function learnWorld(base: string, target: Target): Promise<Known> {
  const collections = (await allCollections(base)).map(knownCollection);
  const named = target.collection?.toLowerCase();
  const mintOn = (target.mintCollection ?? target.collection)?.toLowerCase();
  const first = (c: KnownCollection) => c.address === named || c.address === mintOn;
  // Those the target names first (a stable sort keeps the list's order otherwise).
  const searched = collections.toSorted((a, b) => Number(first(b)) - Number(first(a))).slice(0, COLLECTIONS_WITH_ITEMS);
  const nextTokenIds = new Map<string, number>();
  const items: KnownItem[] = [];
  if (named && target.tokenId !== undefined)
    items.push({
      address: named,
      chainId: target.chainId ?? collections.find((c) => c.address === named)?.chainId ?? 0,
      tokenId: target.tokenId,
    });
  for (const collection of searched) {
    const next = await nextTokenId(base, collection.address);
    nextTokenIds.set(collection.address, next);
    const tokenIds = [
      ...new Set([...Array.from({ length: Math.min(ITEMS_PER_COLLECTION - 1, next - 1) }, (_, i) => i + 1), next - 1]),
    ].filter((id) => id >= 1);
    for (const tokenId of tokenIds)
      if (!items.some((item) => item.address === collection.address && item.tokenId === tokenId))
        items.push({ address: collection.address, chainId: collection.chainId, tokenId });
  }
  const mintCollection = collections.find((c) => c.address === mintOn);
  const mint =
    target.allowWrites && target.apiKey && mintCollection
      ? {
          apiKey: target.apiKey,
          collection: mintCollection.address,
          chainId: mintCollection.chainId,
          recipients: [
            ...new Set([
              target.recipient?.toLowerCase() ?? mintCollection.ownerAddress,
              ...collections.slice(0, 3).map((c) => c.ownerAddress),
            ]),
          ],
        }
      : undefined;
  return {
    addresses: [...new Set([...(named ? [named] : []), ...collections.map((c) => c.address)])].slice(0, 50),
    tokenIds: [...new Set([target.tokenId ?? 1, 1, 2, 3])],
    chainIds: [...new Set(collections.map((c) => c.chainId))],
    collections,
    nextTokenIds,
    items,
    ...(mint ? { mint } : {}),
    servesMetadata: collections.length > 0 && collections.every((c) => c.uri.startsWith(`${base}/`)),
  };
}

/** The first token id the collection does not have yet (its items are numbered from 1). */
export async function nextTokenId(base: string, collection: string): Promise<number> {
  const exists = async (tokenId: number) =>
    (await fetch(`${base}${paths.itemEvents(collection, tokenId)}?perPage=1`)).status === 200;
  let high = 1;
  while (await exists(high)) high *= 2;
  let low = high / 2;
  // low exists (or is 0.5: nothing does), high does not.
  if (low < 1) return 1;
  while (high - low > 1) {
    const middle = Math.floor((low + high) / 2);
    if (await exists(middle)) low = middle;
    else high = middle;
  }
  return high;
}
