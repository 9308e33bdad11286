import type { ApiAccount } from "../core/config.ts";
import type { WorldHandles } from "../core/handles.ts";
import type { WorldResponse } from "../schemas/world.ts";

/** A chain's core contracts. */
type Contracts = WorldResponse["chains"][number]["contracts"];

/**
 * The world by handle: its accounts with their API keys, each chain's core contracts, its named collections, items and
 * listings.
 */
export function worldView(
  chains: readonly { chainId: number; contracts: Contracts }[],
  accounts: readonly ApiAccount[],
  handles: WorldHandles,
): WorldResponse {
  const apiKeys = new Map(accounts.map((account) => [account.wallet, account.apiKey]));
  const entries = <V, W>(map: ReadonlyMap<string, V>, view: (value: V) => W) =>
    Object.fromEntries([...map.keys()].sort().map((name) => [name, view(map.get(name)!)]));
  return {
    chains: chains.map(({ chainId, contracts: { factory, marketplace, stablecoin } }) => ({
      chainId,
      contracts: { factory, marketplace, stablecoin },
    })),
    accounts: entries(handles.accounts, ({ address }) => {
      const apiKey = apiKeys.get(address);
      return apiKey === undefined ? { address } : { address, apiKey };
    }),
    collections: entries(handles.collections, ({ chainId, address, slug }) => ({ chainId, address, slug })),
    items: entries(handles.items, ({ chainId, collection, tokenIds }) => ({
      chainId,
      collection,
      tokenIds: tokenIds.map(Number),
    })),
    listings: entries(handles.listings, ({ chainId, listingId }) => ({ chainId, listingId: Number(listingId) })),
  };
}
