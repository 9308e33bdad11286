import type { Address } from "viem";
import type { ReadModels, CollectionRecord } from "../indexer/models.ts";
import type { CollectionDescription } from "../schemas/on-chain-metadata.ts";
import type { Collection, CollectionSummary } from "../schemas/collection.ts";
import { collectionDescription } from "./descriptions.ts";
import { cents, saleWorth } from "./item-event.ts";
import { madeOf } from "./made.ts";

const DAY = 86_400;

/** A collection as answered alone and in the list, plus the fields only filters may see. */
export interface CollectionView {
  collection: Collection;
  summary: CollectionSummary;
  isVerified: boolean;
}

/** What one version of a chain's read models shows: its collections, and their list orders (`orderedViews`). */
export interface VersionViews {
  version: number;
  collections?: Map<Address, CollectionView>;
  /** Each list order of these collections with the other chains' (by sort and chains), and those chains' views. */
  orders: Map<string, { others: readonly VersionViews[]; ordered: readonly CollectionView[] }>;
}

/** What the models' version shows, kept until the version moves. */
export function versionViews(models: ReadModels): VersionViews {
  return madeOf(
    models,
    (): VersionViews => ({ version: models.version, orders: new Map() }),
    (made) => made.version === models.version,
  );
}

/**
 * Every collection of one chain as the API shows it, derived from the read models (the metadata included: the chain
 * told it), made once per version of the models.
 */
export function collectionViews(models: ReadModels): Map<Address, CollectionView> {
  const shown = versionViews(models);
  return (shown.collections ??= collectionsOf(models));
}

function collectionsOf(models: ReadModels): Map<Address, CollectionView> {
  const views = new Map<Address, CollectionView>();
  for (const record of models.collections.values()) {
    const meta = collectionDescription(record);
    const collection = toCollection(
      record,
      meta,
      models.holders.get(record.address)?.size ?? 0,
      volumes(models, record.address),
    );
    const summary = Object.freeze(withoutImageUrl(collection));
    views.set(
      record.address,
      Object.freeze({ collection: Object.freeze(collection), summary, isVerified: meta.isVerified }),
    );
  }
  return views;
}

function toCollection(
  record: CollectionRecord,
  meta: CollectionDescription,
  holders: number,
  volume: Volumes,
): Collection {
  return {
    address: record.address,
    name: record.name,
    description: meta.description,
    genre: meta.genre,
    image: meta.image,
    imageHash: meta.imageHash,
    ownerAddress: record.owner,
    slug: meta.slug,
    uri: record.uri,
    website: meta.website,
    mintDate: new Date(record.createdAt * 1000).toISOString(),
    chainId: record.chainId,
    holders,
    ...volume,
    imageUrl: meta.image,
  };
}

// The list leaves out imageUrl, which only the single collection carries.
function withoutImageUrl({ imageUrl: _imageUrl, ...summary }: Collection): CollectionSummary {
  return summary;
}

type Volumes = Pick<Collection, "volume_1d" | "volume_1w" | "volume_30d" | "volume_all">;

/**
 * USD sale volume in windows ending at the latest block's time: the sum of its sales' worth, as their events answer it.
 */
function volumes(models: ReadModels, collection: Address): Volumes {
  const now = models.head.timestamp;
  const totals = { volume_1d: 0, volume_1w: 0, volume_30d: 0, volume_all: 0 };
  for (const sale of models.sales.get(collection) ?? []) {
    const worth = saleWorth(models.facts, sale);
    const age = now - sale.timestamp;
    if (age < DAY) totals.volume_1d += worth;
    if (age < 7 * DAY) totals.volume_1w += worth;
    if (age < 30 * DAY) totals.volume_30d += worth;
    totals.volume_all += worth;
  }
  return {
    volume_1d: cents(totals.volume_1d),
    volume_1w: cents(totals.volume_1w),
    volume_30d: cents(totals.volume_30d),
    volume_all: cents(totals.volume_all),
  };
}
