import { formatUnits, zeroAddress } from "viem";
import type { Accounts } from "../core/accounts.ts";
import { CURRENCY_DECIMALS } from "../chain/currencies.ts";
import type { ChainRegistry } from "../chain/registry.ts";
import { itemKey, type ReadModels } from "../indexer/models.ts";
import type { WorldHandles } from "../core/handles.ts";
import type { ChainReplay } from "../scenario/chain-replay.ts";
import { marketListing } from "../scenario/chain-reads.ts";
import type { KnownWorld } from "../scenario/references.ts";
import type { CheckedFragment } from "../schemas/fragment.ts";
import type { ListingState } from "../timeline/action.ts";
import { collectionDescription } from "../views/descriptions.ts";

/** What a fragment may name of the world, from its handles, each chain's read models (synced) and its listings. */
export function knownWorld(
  { accounts, handles }: { accounts: Accounts; handles: WorldHandles },
  modelsOf: ReadonlyMap<number, ReadModels>,
  listings: ReadonlyMap<string, WorldListing>,
): KnownWorld {
  const collectionNames = new Map([...handles.collections].map(([name, landed]) => [landed.address, name]));
  const items = new Map(
    [...handles.items].flatMap(([name, landed]) => {
      const collection = collectionNames.get(landed.collection);
      const described = modelsOf.get(landed.chainId)?.items.get(itemKey(landed.collection, landed.tokenIds[0]!));
      const isStackable = described?.creation.description?.stackable ?? landed.tokenIds.length === 1;
      return collection ? [[name, { collection, isStackable, initialSupply: landed.tokenIds.length }] as const] : [];
    }),
  );
  const slugs = new Set(
    [...modelsOf].flatMap(([chainId, models]) =>
      [...models.collections.values()].map((record) => `${chainId}/${collectionDescription(record).slug}`),
    ),
  );
  return {
    accounts: new Set(handles.accounts.keys()),
    apiKeys: new Set(accounts.list().map((account) => account.apiKey)),
    keyedAccounts: new Set(accounts.list().map((account) => account.name)),
    collections: handles.collections,
    slugs,
    items,
    listings: new Map([...listings].map(([name, listing]) => [name, listingState(listing, handles)])),
  };
}

/** A listing of the world's, as the marketplace holds it. */
export interface WorldListing {
  chainId: number;
  listingId: bigint;
  held: Awaited<ReturnType<typeof marketListing>>;
}

/**
 * The world's listings the fragment names, as the marketplace holds them now: read once, while every chain is held,
 * for the checks, the rules and the replay alike.
 */
export async function worldListings(
  fragment: CheckedFragment,
  { chains, handles }: { chains: ChainRegistry; handles: WorldHandles },
): Promise<Map<string, WorldListing>> {
  const named = new Set(fragment.timeline.flatMap((entry) => ("listing" in entry ? [entry.listing] : [])));
  const found = new Map<string, WorldListing>();
  for (const name of named) {
    const landed = handles.listings.get(name);
    const chain = landed && chains.get(landed.chainId);
    if (!landed || !chain) continue;
    found.set(name, { ...landed, held: await marketListing(chain, landed.listingId) });
  }
  return found;
}

/** A world listing as the checks and the rules know it: how much is left, its price, and its item and seller by name. */
function listingState({ chainId, held }: WorldListing, handles: WorldHandles): ListingState {
  const item = [...handles.items].find(
    ([, found]) => found.collection === held.collection && found.tokenIds.includes(held.tokenId),
  );
  const seller = handles.nameOf(held.seller);
  const currency = held.currency === zeroAddress ? "native" : "stablecoin";
  return {
    path: "the world",
    chainId,
    remaining: Number(held.amount),
    currency,
    price: formatUnits(held.price, CURRENCY_DECIMALS[currency]),
    ...(item ? { item: item[0], copy: item[1].tokenIds.indexOf(held.tokenId) + 1 } : {}),
    ...(seller ? { seller } : {}),
    ...(held.amount === 0n ? { closedBy: "the world (it is closed)" } : {}),
  };
}

/** The world's listings on the replay's chain, as its entries send to them. */
export function seedListings(replay: ChainReplay, listings: ReadonlyMap<string, WorldListing>): void {
  for (const [name, { chainId, listingId, held }] of listings) {
    if (chainId !== replay.chain.chainId) continue;
    const { seller, price, currency } = held;
    const decimals = CURRENCY_DECIMALS[currency === zeroAddress ? "native" : "stablecoin"];
    replay.listings.set(name, { id: listingId, seller, price, currency, decimals });
  }
}
