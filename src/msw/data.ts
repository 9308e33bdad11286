import type { Address } from "viem";
import type { Collection } from "../schemas/collection.ts";
import type { ItemEvent } from "../schemas/item-event.ts";
import type { CollectionView } from "../views/collections.ts";

/** The snapshot index (fixtures/snapshots/index.json): each request taken and the file holding its answer. */
export interface SnapshotIndex {
  baseUrl: string;
  perPage: number;
  /** Each chain's head block when the snapshots were taken (snapshots exported before it was recorded have none). */
  heads?: ChainHead[];
  responses: { method: string; url: string; status: number; file: string }[];
}

/** A chain's latest block: its number and time. */
export interface ChainHead {
  chainId: number;
  blockNumber: number;
  timestamp: number;
}

/** Reads one snapshot file (a path under the snapshot directory) as parsed JSON. */
export type SnapshotReader = (file: string) => unknown;

/** One chain's collections as the list code takes them: the same view objects the simulator builds. */
export type ChainViews = Map<Address, CollectionView>;

/** What the mock answers from: every collection and every item history of a snapshotted world. */
export interface MockWorld {
  /**
   * Per chain, in chain order; a map is replaced, never changed (a mocked mint's new holder), so each has its list
   * orders made once.
   */
  perChain: ChainViews[];
  /** `<chainId>-<collection>-<tokenId>` → the item's whole history, newest first. */
  histories: Map<string, ItemEvent[]>;
  /** Each chain's head (a mocked mint goes in the block after it, on the world's clock). */
  heads: Map<number, ChainHead>;
  /**
   * The world's clock: from each chain's head time when the mock started (at `startedAt`, ms), on at the wall's pace,
   * as a chain's runs on from its last block.
   */
  clock: { startedAt: number; times: Map<number, number> };
  /** `<chainId>/<slug>/<tokenId>` → the item's metadata, as snapshotted. */
  metadata: Map<string, unknown>;
  /** `<chainId>-<collection>` → its holders, worked out from its histories when a mint first needs them. */
  holders: Map<string, Set<string>>;
  /** `/images/<seed>.png` → the image's bytes, where the snapshot files given hold them. */
  images: Map<string, Uint8Array>;
}

/** An image file as a reader gives it: its bytes, or base64 text (files a bundler brought as text). */
function bytesOf(content: unknown): Uint8Array {
  if (content instanceof Uint8Array) return content;
  return Uint8Array.from(atob(String(content)), (char) => char.charCodeAt(0));
}

export const historyKey = (chainId: number, collection: string, tokenId: number | bigint | "") =>
  `${chainId}-${collection}-${tokenId}`;

/**
 * Rebuilds the world from its snapshots: each collection from its own file, `isVerified` from
 * the list of unverified collections, each item's history from its pages joined in order.
 */
export function worldFromSnapshots(read: SnapshotReader): MockWorld {
  const index = read("index.json") as SnapshotIndex;
  const unverified = new Set<string>();
  const collections: Collection[] = [];
  const pages = new Map<string, { page: number; file: string }[]>();
  const metadata = new Map<string, unknown>();
  const images = new Map<string, Uint8Array>();
  for (const { url, status, file } of index.responses) {
    if (status !== 200) continue;
    if (file.startsWith("images/")) {
      // Files a bundler brought by a pattern, or the browser build, may leave the images out.
      const content = optional(() => read(file));
      if (content !== undefined) images.set(url, bytesOf(content));
      continue;
    }
    const listed = /^collections\/unverified\/page-\d+\.json$/.exec(file);
    if (listed)
      for (const { address, chainId } of (read(file) as { collections: Collection[] }).collections)
        unverified.add(historyKey(chainId, address, 0));
    if (/^collection\/0x[0-9a-f]{40}\.json$/.test(file))
      collections.push((read(file) as { collection: Collection }).collection);
    const item = /^metadata\/(\d+\/[^/]+\/\d+)\.json$/.exec(file);
    if (item) metadata.set(item[1]!, read(file));
    const events = /^\/api\/v2\/item\/events\/(0x[0-9a-f]{40})\/(\d+)\?perPage=\d+&page=(\d+)$/.exec(url);
    if (events) {
      const key = `${events[1]}-${events[2]}`;
      pages.set(key, [...(pages.get(key) ?? []), { page: Number(events[3]), file }]);
    }
  }

  const byChain = new Map<number, ChainViews>();
  for (const collection of collections) {
    const { imageUrl: _imageUrl, ...summary } = collection;
    const view: CollectionView = Object.freeze({
      collection: Object.freeze(collection),
      summary: Object.freeze(summary),
      isVerified: !unverified.has(historyKey(collection.chainId, collection.address, 0)),
    });
    if (!byChain.has(collection.chainId)) byChain.set(collection.chainId, new Map());
    byChain.get(collection.chainId)!.set(collection.address as Address, view);
  }

  const chainOf = new Map(collections.map((collection) => [collection.address, collection.chainId]));
  const histories = new Map<string, ItemEvent[]>();
  // Older snapshots name no heads: the latest event of each chain stands in for it.
  const heads = new Map((index.heads ?? []).map((head) => [head.chainId, head]));
  const latest = new Map<number, ChainHead>();
  for (const [key, found] of pages) {
    const [address, tokenId] = key.split("-") as [string, string];
    const events = found
      .sort((a, b) => a.page - b.page)
      .flatMap(({ file }) => (read(file) as { events: ItemEvent[] }).events.map((event) => Object.freeze(event)));
    const chainId = chainOf.get(address);
    if (chainId === undefined) continue;
    histories.set(historyKey(chainId, address, Number(tokenId)), events);
    for (const { blockNumber, timestamp } of events)
      if (blockNumber > (latest.get(chainId)?.blockNumber ?? -1))
        latest.set(chainId, { chainId, blockNumber, timestamp });
  }
  for (const [chainId, head] of latest) if (!heads.has(chainId)) heads.set(chainId, head);
  const perChain = [...byChain.keys()].sort((a, b) => a - b).map((chainId) => byChain.get(chainId)!);
  const clock = {
    startedAt: Date.now(),
    times: new Map([...heads].map(([chainId, head]) => [chainId, head.timestamp])),
  };
  return { perChain, histories, heads, clock, metadata, images, holders: new Map() };
}

function optional(read: () => unknown): unknown {
  try {
    return read();
  } catch {
    return undefined;
  }
}

/** A request as the mock sees it: method, path (still percent-encoded), query string and body text. */
export interface MockRequest {
  method: string;
  path: string;
  search: string;
  contentType: string | null;
  body: () => Promise<string>;
}

/** The collection on `chainId`'s chain when given, else on the first chain that has it. */
export function findCollection(world: MockWorld, address: Address, chainId?: number): CollectionView | undefined {
  for (const views of world.perChain) {
    const view = views.get(address);
    if (view && (chainId === undefined || view.collection.chainId === chainId)) return view;
  }
  return undefined;
}
