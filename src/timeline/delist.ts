import { timelineAction } from "./action.ts";
import { openListing } from "./checks.ts";
import { Handle } from "./fields.ts";
import { callAsSeller } from "./marketplace.ts";

/** Closes an open listing; what is left in escrow goes back to its seller. */
export const delist = timelineAction({
  name: "delist",
  fields: { listing: Handle },

  check(state, step) {
    const listing = openListing(state, step);
    if (listing) listing.closedBy = step.path;
  },

  async rule(ledger, entry) {
    const listing = ledger.listing(entry.listing);
    if (listing) ledger.credit(listing.item, listing.copy, listing.seller, BigInt(listing.remaining));
  },

  send: (replay, entry, at) => callAsSeller(replay, entry.listing, "delist", at),
});
