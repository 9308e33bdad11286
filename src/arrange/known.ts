import type { Accounts } from "../core/accounts.ts";
import type { ChainRegistry } from "../chain/registry.ts";
import { itemKey } from "../indexer/models.ts";
import type { WorldHandles } from "../core/handles.ts";
import type { KnownWorld } from "../scenario/references.ts";
import { collectionDescription } from "../views/descriptions.ts";
import { listingState, type WorldListing } from "./world-listings.ts";

/** What a fragment may name of the world, from its handles, the read models (chains synced) and its listings. */
export async function knownWorld(
  { chains, accounts, handles }: { chains: ChainRegistry; accounts: Accounts; handles: WorldHandles },
  listings: ReadonlyMap<string, WorldListing>,
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
    listings: new Map([...listings].map(([name, listing]) => [name, listingState(listing, handles)])),
  };
}
