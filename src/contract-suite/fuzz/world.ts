import type { Target } from "../target.ts";
import { LARGEST_PAGE, paths } from "../target.ts";
import type { Known } from "./values.ts";

interface Listed {
  address: string;
  chainId: number;
}

async function allCollections(base: string): Promise<Listed[]> {
  const found: Listed[] = [];
  for (let page = 1; ; page += 1) {
    const body = (await fetch(`${base}${paths.collections}?perPage=${LARGEST_PAGE}&page=${page}&sortBy=address&sortDir=asc`).then((r) => r.json())) as { collections: Listed[]; count: number };
    found.push(...body.collections);
    if (body.collections.length === 0 || found.length >= body.count) return found;
  }
}

/** Real values for the generated requests: the target's collections, chains and a few token ids. */
export async function learnWorld(base: string, target: Target): Promise<Known> {
  const collections = await allCollections(base);
  const addresses = [...new Set([...(target.collection ? [target.collection] : []), ...collections.map((c) => c.address)])].slice(0, 50);
  return { addresses, tokenIds: [...new Set([target.tokenId ?? 1, 1, 2, 3])], chainIds: [...new Set(collections.map((c) => c.chainId))] };
}

/** Everything the list shows, to tell whether anything changed. */
export async function worldDigest(base: string): Promise<unknown[]> {
  return allCollections(base);
}

/** The first token id the collection does not have yet (its items are numbered from 1). */
export async function nextTokenId(base: string, collection: string): Promise<number> {
  const exists = async (tokenId: number) => (await fetch(`${base}${paths.itemEvents(collection, tokenId)}?perPage=1`)).status === 200;
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
