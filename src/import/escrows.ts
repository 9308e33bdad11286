import type { LiveCollection } from "./live-reads.ts";

// Where a chain's marketplace is, as item histories tell it: the escrow a listing moves its tokens to.

/** A history event as far as finding an escrow goes: an item history's event, typed or as answered. */
interface HistoryEvent {
  event?: unknown;
  from?: unknown;
  to?: unknown;
  transactionHash?: unknown;
}

/**
 * The escrow addresses item histories show, each with how many transfers name it, in the order first met: the end of a
 * transfer, in a market event's transaction, that is neither the event's seller nor its buyer.
 */
export function escrowsOf(histories: readonly (readonly HistoryEvent[])[]): Map<unknown, number> {
  const escrows = new Map<unknown, number>();
  for (const events of histories) {
    const market = new Map<unknown, { from: unknown; to: unknown }>();
    for (const event of events)
      if (event.event !== "TransferSingle" && event.event !== "TransferBatch")
        market.set(event.transactionHash, { from: event.from, to: event.to });
    for (const event of events) {
      const parties = market.get(event.transactionHash);
      if (!parties || event.event !== "TransferSingle") continue;
      for (const end of [event.from, event.to])
        if (end !== parties.from && end !== parties.to) escrows.set(end, (escrows.get(end) ?? 0) + 1);
    }
  }
  return escrows;
}

/** A chain's live marketplace: the escrow the world places it at, and any other escrow its histories show. */
export interface LiveMarketplace {
  chainId: number;
  address: string;
  /** How many transfers of its histories name it. */
  transfers: number;
  /** Other escrows (another marketplace of the live chain): their events' `from` or `to` stays the placed one's. */
  others: { address: string; transfers: number }[];
}

/**
 * Each chain's marketplace as the collections' histories show it. Where they show more than one escrow, the one most
 * transfers name is the chain's (so the most events keep their live `from` and `to`), on a tie the one met first in
 * time; the others are named with it.
 */
export function liveMarketplaces(collections: readonly LiveCollection[]): LiveMarketplace[] {
  const chainIds = [...new Set(collections.map(({ collection }) => collection.chainId))];
  return chainIds.flatMap((chainId) => {
    // The chain's events as one history, oldest first: the escrows in the order first used.
    const events = collections
      .filter(({ collection }) => collection.chainId === chainId)
      .flatMap(({ items }) => items.flatMap((item) => item.events))
      .sort((a, b) => a.blockNumber - b.blockNumber);
    const [chosen, ...others] = [...escrowsOf([events])]
      .map(([address, transfers]) => ({ address: String(address).toLowerCase(), transfers }))
      .sort((a, b) => b.transfers - a.transfers);
    return chosen ? [{ chainId, ...chosen, others }] : [];
  });
}

/**
 * Names each live listing as the world's timeline does, one event at a time in chain order. A marketplace numbers its
 * listings from 1, so two of a chain may each have a listing 7: the placed marketplace's (or one whose escrow no event
 * shows) is `l<chainId>-<id>`, the chain's k-th other's `l<chainId>-m<k+1>-<id>`, each replayed through the placed one. An
 * event whose transaction moves no token (a price update) is its item's latest listing of that id, as the transfer of an
 * earlier event of it showed.
 */
export function listingNames(
  marketplaces: readonly LiveMarketplace[],
): (
  event: HistoryEvent & { chainId: number; id: string; itemRef: string },
  transfers: readonly HistoryEvent[],
) => string {
  const escrowOf = new Map<string, unknown>();
  return (event, transfers) => {
    const listingId = event.id.split("-")[1];
    const key = `${event.itemRef}/${listingId}`;
    const shown = transfers
      .flatMap(({ from, to }) => [from, to])
      .find((end) => end !== event.from && end !== event.to && typeof end === "string");
    if (shown !== undefined) escrowOf.set(key, String(shown).toLowerCase());
    const escrow = escrowOf.get(key);
    const others = marketplaces.find(({ chainId }) => chainId === event.chainId)?.others ?? [];
    const other = others.findIndex(({ address }) => address === escrow);
    return `l${event.chainId}-${other < 0 ? "" : `m${other + 2}-`}${listingId}`;
  };
}
