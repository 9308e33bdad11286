import type { Address } from "viem";
import type { ReadModels } from "../indexer/models.ts";
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
  return (versionViews(models).collections ??= collectionsOf(models));
}

function collectionsOf(models: ReadModels): Map<Address, CollectionView> {
  const views = new Map<Address, CollectionView>();
  for (const record of models.collections.values()) {
    const meta = collectionDescription(record);
    const collection: Collection = Object.freeze({
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
      holders: models.holders.get(record.address)?.size ?? 0,
      ...volumes(models, record.address),
      imageUrl: meta.image,
    });
    // The list leaves out imageUrl, which only the single collection carries.
    const { imageUrl: _imageUrl, ...summary } = collection;
    Object.freeze(summary);
    views.set(record.address, Object.freeze({ collection, summary, isVerified: meta.isVerified }));
  }
  return views;
}

/** Each volume's window, in days. */
const VOLUME_WINDOW_DAYS = { volume_1d: 1, volume_1w: 7, volume_30d: 30, volume_all: Infinity };
type Volumes = Record<keyof typeof VOLUME_WINDOW_DAYS, number>;

/**
 * USD sale volume in windows ending at the latest block's time: the sum of its sales' worth, as their events answer it.
 */
function volumes(models: ReadModels, collection: Address): Volumes {
  const sales = models.sales.get(collection) ?? [];
  const totals = Object.entries(VOLUME_WINDOW_DAYS).map(([window, days]) => {
    const within = sales.filter((sale) => models.head.timestamp - sale.timestamp < days * DAY);
    return [window, cents(within.reduce((sum, sale) => sum + saleWorth(models.facts, sale), 0))];
  });
  return Object.fromEntries(totals) as Volumes;
}
