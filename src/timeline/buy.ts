import { zeroAddress } from "viem";
import type { WriteOptions } from "../chain/sim-chain.ts";
import { timelineAction, type SendContext } from "./action.ts";
import { openListing } from "./checks.ts";
import { Amount, Handle } from "./fields.ts";
import { callMarketplace } from "./marketplace.ts";

/**
 * Gives a stablecoin buyer the coins and the marketplace the allowance the buy needs, where it lacks them; nothing yet
 * for a listing not open yet (a set-up before the block that opens it: the buy gives them itself).
 */
async function fund(replay: SendContext, entry: { listing: string; buyer: string; amount: number }, at: WriteOptions) {
  const listing = replay.listings.get(entry.listing);
  if (listing && listing.currency !== zeroAddress)
    await replay.fundStablecoin(replay.account(entry.buyer), listing.price * BigInt(entry.amount), at);
}

/** Buys from an open listing (a sale: Swapped); a stablecoin buyer is given coins and approves first. */
export const buy = timelineAction({
  name: "buy",
  fields: { listing: Handle, buyer: Handle, amount: Amount },
  accounts: ["buyer"],

  check(state, step) {
    const { action, path } = step;
    const listing = openListing(state, step);
    if (listing && action.amount > listing.remaining) {
      state.problems.push(
        `${path}.amount: ${action.amount} is more than listing '${action.listing}' has left (${listing.remaining})`,
      );
    } else if (listing) {
      listing.remaining -= action.amount;
      if (listing.remaining === 0) listing.closedBy = `${path} (sold out)`;
    }
  },

  async rule(ledger, entry, path) {
    const listing = ledger.listing(entry.listing);
    if (!listing) return;
    ledger.credit(listing.item, listing.copy, entry.buyer, BigInt(entry.amount));
    if (listing.currency === "native") await ledger.pay(path, entry.buyer, listing, BigInt(entry.amount));
  },

  setUp: fund,

  async send(replay, entry, at) {
    const listing = replay.listings.get(entry.listing)!;
    const buyer = replay.account(entry.buyer);
    const amount = BigInt(entry.amount);
    const native = listing.currency === zeroAddress;
    await fund(replay, entry, at);
    const call = { functionName: "buy", args: [listing.id, amount] } as const;
    return callMarketplace(replay.chain, buyer, call, at, native ? listing.price * amount : undefined);
  },
});
