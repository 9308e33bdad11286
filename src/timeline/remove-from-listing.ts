import { timelineAction } from "./action.ts";
import { openListing } from "./checks.ts";
import { Amount, Handle } from "./fields.ts";
import { callAsSeller } from "./marketplace.ts";

/** Takes part of an open listing back to its seller (not all of it: that is delist). */
export const removeFromListing = timelineAction({
  name: "removeFromListing",
  fields: { listing: Handle, amount: Amount },

  check(state, step) {
    const { action, path } = step;
    const listing = openListing(state, step);
    if (listing && action.amount >= listing.remaining) {
      state.problems.push(
        `${path}.amount: ${action.amount} would empty listing '${action.listing}' (${listing.remaining} left); use ` +
          `delist`,
      );
    } else if (listing) listing.remaining -= action.amount;
  },

  async rule(ledger, entry) {
    const listing = ledger.listing(entry.listing);
    if (listing) ledger.credit(listing.item, listing.copy, listing.seller, BigInt(entry.amount));
  },

  send: (replay, entry, at) => callAsSeller(replay, entry.listing, "removeFromListing", at, BigInt(entry.amount)),
});
