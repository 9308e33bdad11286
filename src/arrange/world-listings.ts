import { zeroAddress } from "viem";
import { CURRENCY_DECIMALS } from "../chain/currencies.ts";
import type { ChainReplay } from "../scenario/chain-replay.ts";
import { marketListing } from "../scenario/chain-reads.ts";
import type { CheckedFragment } from "../schemas/fragment.ts";
import type { WorldHandles } from "../core/handles.ts";

/**
 * The world's listings on the replay's chain that the fragment names without opening them, as the marketplace holds
 * them now.
 */
export async function seedListings(
  replay: ChainReplay,
  fragment: CheckedFragment,
  handles: WorldHandles,
): Promise<void> {
  const opened = new Set(fragment.timeline.flatMap((entry) => (entry.action === "list" ? [entry.listing] : [])));
  for (const entry of fragment.timeline) {
    if (!("listing" in entry) || opened.has(entry.listing) || replay.listings.has(entry.listing)) continue;
    const landed = handles.listings.get(entry.listing);
    if (landed?.chainId !== replay.chain.chainId) continue;
    const held = await marketListing(replay.chain, landed.listingId);
    const decimals = held.currency === zeroAddress ? CURRENCY_DECIMALS.native : CURRENCY_DECIMALS.stablecoin;
    replay.listings.set(entry.listing, {
      id: landed.listingId,
      seller: held.seller,
      price: held.price,
      currency: held.currency,
      decimals,
    });
  }
}
