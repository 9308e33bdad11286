import { zeroAddress } from "viem";
import type { Accounts } from "../core/accounts.ts";
import type { ChainRegistry } from "../chain/registry.ts";
import { itemKey } from "../indexer/models.ts";
import type { ListingState } from "../scenario/action-checks.ts";
import { marketListing } from "../scenario/chain-reads.ts";
import type { CheckedFragment } from "../schemas/fragment.ts";
import type { WorldHandles } from "../core/handles.ts";
import type { KnownWorld } from "../scenario/references.ts";
import { collectionDescription } from "../views/descriptions.ts";

/** What a fragment may name of the world, from its handles and the read models (chains synced). */
export async function knownWorld(
  fragment: CheckedFragment,
  { chains, accounts, handles }: { chains: ChainRegistry; accounts: Accounts; handles: WorldHandles },
): Promise<KnownWorld> {
  const reads = await chains.read();
  const modelsOf = new Map(reads.map(({ chain, models }) => [chain.chainId, models]));
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
    reads.flatMap(({ chain, models }) =>
      [...models.collections.values()].map((record) => `${chain.chainId}/${collectionDescription(record).slug}`),
    ),
  );
  return {
    accounts: new Set(handles.accounts.keys()),
    apiKeys: new Set(accounts.list().map((account) => account.apiKey)),
    keyedAccounts: new Set(accounts.list().map((account) => account.name)),
    collections: handles.collections,
    slugs,
    items,
    listings: await namedListings(fragment, { chains, handles }),
  };
}

/** The world's listings the fragment names, as the marketplace holds them now (how much is left, in which currency). */
async function namedListings(
  fragment: CheckedFragment,
  { chains, handles }: { chains: ChainRegistry; handles: WorldHandles },
): Promise<Map<string, ListingState>> {
  const named = new Set(fragment.timeline.flatMap((entry) => ("listing" in entry ? [entry.listing] : [])));
  const found = new Map<string, ListingState>();
  for (const name of named) {
    const landed = handles.listings.get(name);
    const chain = landed && chains.get(landed.chainId);
    if (!landed || !chain) continue;
    const listing = await marketListing(chain, landed.listingId);
    found.set(name, {
      path: "the world",
      chainId: landed.chainId,
      remaining: Number(listing.amount),
      currency: listing.currency === zeroAddress ? "native" : "stablecoin",
      ...(listing.amount === 0n ? { closedBy: "the world (it is closed)" } : {}),
    });
  }
  return found;
}
