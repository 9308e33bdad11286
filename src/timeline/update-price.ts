import { parseUnits } from "viem";
import { timelineAction } from "./action.ts";
import { checkPrice, openListing } from "./checks.ts";
import { Handle, Price } from "./fields.ts";
import { callAsSeller } from "./marketplace.ts";

/**
 * A new price per item for an open listing, sent by its seller. It has no rules of its own: the seller, an open listing
 * and a price above 0 are what the checks already ask.
 */
export const updatePrice = timelineAction({
  name: "updatePrice",
  fields: { listing: Handle, price: Price },

  check(state, step) {
    const listing = openListing(state, step);
    if (!listing) return;
    checkPrice(state, step.path, step.action.price, listing.currency);
    listing.price = step.action.price;
  },

  send(replay, entry, at) {
    const listing = replay.listings.get(entry.listing)!;
    listing.price = parseUnits(entry.price, listing.decimals);
    return callAsSeller(replay, entry.listing, "updatePrice", at, listing.price);
  },
});
