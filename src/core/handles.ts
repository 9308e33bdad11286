import type { Address, Hex } from "viem";

/**
 * A named account of the world: its wallet, and the key the simulator signs with (none for an account placed at a live
 * address: the chain sends as it by impersonation).
 */
export interface AccountHandle {
  address: Address;
  key?: Hex;
}

/** Where a named collection is on chain, and its slug (its metadata's path). */
export interface LandedCollection {
  chainId: number;
  address: Address;
  slug: string;
}

/** Where a named item is: its collection and its token id(s) (one per copy of a non-stackable item). */
export interface LandedItem {
  chainId: number;
  collection: Address;
  tokenIds: bigint[];
}

/** A named listing: the marketplace's id for it on its chain. */
export interface LandedListing {
  chainId: number;
  listingId: bigint;
}

/** The handles as they were at one moment (a snapshot), to come back to with `restore`. */
export interface HandlesCopy {
  accounts: ReadonlyMap<string, AccountHandle>;
  collections: ReadonlyMap<string, LandedCollection>;
  items: ReadonlyMap<string, LandedItem>;
  listings: ReadonlyMap<string, LandedListing>;
}

/**
 * The names the world gives its accounts, collections, items and listings, and what each stands
 * for on chain: filled by the scenario's replay (or read back from a chain attached with
 * --contracts), by every fragment applied since (POST /_sim/scenario) and by API keys the control
 * API made; kept across snapshots and reset with the chains, and rebuilt on a restart with --state
 * as the journal replays. Entries are never changed in place: a snapshot copies the maps only.
 */
export class WorldHandles {
  accounts = new Map<string, AccountHandle>();
  collections = new Map<string, LandedCollection>();
  items = new Map<string, LandedItem>();
  listings = new Map<string, LandedListing>();

  constructor(accounts: Iterable<[string, AccountHandle]> = []) {
    this.accounts = new Map(accounts);
  }

  /** The name of the account with this address, if the world names it. */
  nameOf(address: Address): string | undefined {
    for (const [name, account] of this.accounts) if (account.address === address) return name;
    return undefined;
  }

  copy(): HandlesCopy {
    return copied(this);
  }

  restore(copy: HandlesCopy): void {
    Object.assign(this, copied(copy));
  }
}

const copied = ({ accounts, collections, items, listings }: HandlesCopy) => ({
  accounts: new Map(accounts),
  collections: new Map(collections),
  items: new Map(items),
  listings: new Map(listings),
});
