import { timelineAction } from "./action.ts";
import { openListing } from "./checks.ts";
import { Amount, Handle } from "./fields.ts";
import { callAsSeller } from "./marketplace.ts";

/** Puts more of the seller's tokens into an open listing. */
export const addToListing = timelineAction({
  name: "addToListing",
  fields: { listing: Handle, amount: Amount },

  check(state, step) {
    const listing = openListing(state, step);
    if (listing) listing.remaining += step.action.amount;
  },

  async rule(ledger, entry, path) {
    const listing = ledger.listing(entry.listing);
    if (listing) ledger.debit(path, listing.item, listing.copy, listing.seller, BigInt(entry.amount));
  },

  send: (replay, entry, at) => callAsSeller(replay, entry.listing, "addToListing", at, BigInt(entry.amount)),
});
