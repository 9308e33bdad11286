import { StartError } from "../core/errors.ts";
import { START_ERRORS } from "../core/start-errors.ts";
import type { Collection } from "../schemas/collection.ts";
import type { ItemEvent } from "../schemas/item-event.ts";
import type { LiveAnswer, PoliteFetcher } from "./polite-fetch.ts";

/** One item as the live service told it: its metadata and its whole history (newest first, as answered). */
export interface LiveItem {
  tokenId: number;
  metadata: ItemMetadataAnswer | undefined;
  events: ItemEvent[];
}

/** `<uri>/<tokenId>`: the fields the import reads of it. */
export interface ItemMetadataAnswer {
  name?: string;
  description?: string;
  image?: string;
  fileType?: string;
  attributes?: { trait_type: string; value: string; static?: boolean }[];
  isStackable?: boolean;
  isConsumable?: boolean;
  maximumSupply?: number;
  royaltyFee?: number;
}

export interface LiveCollection {
  collection: Collection;
  items: LiveItem[];
}

/** Every URL read, in the order read: what the report compares. */
export type ReadLog = LiveAnswer[];

const PER_PAGE = 100;

function json(answer: LiveAnswer): unknown {
  try {
    return JSON.parse(answer.text);
  } catch {
    return undefined;
  }
}

/** The base URL serves this API: its collection list answers `{ collections: [], count }` as JSON. */
export async function checkIsTheApi(fetcher: PoliteFetcher, base: string): Promise<void> {
  const url = `${base}/api/v2/collection?perPage=1`;
  const answer = await fetcher.get(url);
  const body = json(answer) as { collections?: unknown; count?: unknown } | undefined;
  if (answer.status !== 200 || !Array.isArray(body?.collections) || typeof body?.count !== "number") {
    const got =
      answer.status !== 200
        ? `it answered ${answer.status}`
        : body === undefined
          ? `it answered ${answer.contentType || "no content type"}, not JSON`
          : "its JSON has no collections and count";
    throw new StartError(
      START_ERRORS.IMPORT_UPSTREAM,
      `${base} is not this API: expected GET ${url} to answer 200 with JSON { "collections": [...], "count": n }, but ${got}`,
    );
  }
}

/** A collection and every item of it (token ids from 1 until `missRun` in a row have no history), read live. */
export async function readLiveCollection(
  fetcher: PoliteFetcher,
  base: string,
  address: string,
  missRun: number,
  log: ReadLog,
): Promise<LiveCollection> {
  const read = async (url: string) => {
    const answer = await fetcher.get(url);
    log.push(answer);
    return answer;
  };
  const answer = await read(`${base}/api/v2/collection/${address.toLowerCase()}`);
  if (answer.status === 404)
    throw new StartError(START_ERRORS.IMPORT_COLLECTION, `no collection at ${address} on ${base} (it answered 404)`);
  const body = json(answer) as { collection?: Collection } | undefined;
  if (answer.status !== 200 || !body?.collection)
    throw new StartError(
      START_ERRORS.IMPORT_UPSTREAM,
      `collection ${address}: expected 200 with { "collection": ... }, got ${answer.status}`,
    );
  const collection = body.collection;
  const items: LiveItem[] = [];
  let misses = 0;
  // Token ids are read a window at a time, as many as fit in flight, in order.
  for (let first = 1; misses < missRun; first += missRun) {
    const window = Array.from({ length: missRun }, (_, i) => first + i);
    const read1 = await Promise.all(window.map((tokenId) => readItem(read, base, collection, tokenId)));
    for (const item of read1) {
      if (misses >= missRun) break;
      if (item) {
        items.push(item);
        misses = 0;
      } else misses++;
    }
  }
  return { collection, items };
}

async function readItem(
  read: (url: string) => Promise<LiveAnswer>,
  base: string,
  collection: Collection,
  tokenId: number,
): Promise<LiveItem | undefined> {
  const events: ItemEvent[] = [];
  for (let page = 1; ; page++) {
    const answer = await read(
      `${base}/api/v2/item/events/${collection.address}/${tokenId}?perPage=${PER_PAGE}&page=${page}`,
    );
    const body = json(answer) as { events?: ItemEvent[] } | undefined;
    if (answer.status === 404 || (answer.status === 200 && page === 1 && body?.events?.length === 0)) return undefined;
    if (answer.status !== 200 || !Array.isArray(body?.events))
      throw new StartError(
        START_ERRORS.IMPORT_UPSTREAM,
        `${answer.url}: expected 200 with { "events": [...] }, got ${answer.status}`,
      );
    events.push(...body.events);
    if (body.events.length < PER_PAGE) break;
  }
  const metadata = await read(`${collection.uri.replace(/\/+$/, "")}/${tokenId}`);
  return {
    tokenId,
    events,
    metadata: metadata.status === 200 ? (json(metadata) as ItemMetadataAnswer | undefined) : undefined,
  };
}
