import { zeroAddress } from "viem";
import type { ItemEvent } from "../schemas/item-event.ts";

// One live history event (with those of its transaction) as the timeline entry that makes it again.

export const MINTER = "importer";

/**
 * An entry, without its time and block: it names its event's block, and the replay sends what it sends first (a
 * listing's approval, a buyer's coins) in free blocks below it, or last in the block of the entries before it.
 */
export type Entry = Record<string, unknown>;

export function transferEntry(
  event: ItemEvent,
  item: string,
  copy: number | undefined,
  account: (address: string) => string,
): Entry {
  const amount = Number(event.amount);
  const which = { item, ...(copy === undefined ? {} : { copy }) };
  if (event.from === zeroAddress) return { action: "mint", ...which, by: MINTER, to: account(event.to), amount };
  if (event.to === zeroAddress) return { action: "burn", ...which, from: account(event.from), amount };
  return { action: "transfer", ...which, from: account(event.from), to: account(event.to), amount };
}

/** A market event's entry, for the listing the world names `listing` (`listingNames`). */
export function marketEntry(
  event: ItemEvent,
  listing: string,
  item: string,
  copy: number | undefined,
  account: (address: string) => string,
  approved: Set<string>,
): Entry | undefined {
  if (!("listingId" in event) && !/^[A-Za-z]+-\d+-/.test(event.id)) return undefined;
  const market = event as ItemEvent & { price: number; currency: string };
  const price = decimal(market.price);
  const amount = Number(event.amount);
  switch (event.event) {
    case "ItemListed": {
      const seller = account(event.from);
      approved.add(seller);
      const currency = market.currency === zeroAddress ? "native" : "stablecoin";
      return {
        action: "list",
        listing,
        item,
        ...(copy === undefined ? {} : { copy }),
        seller,
        amount,
        price,
        currency,
      };
    }
    case "Swapped":
      return { action: "buy", listing, buyer: account(event.to), amount };
    case "ItemDelisted":
      return { action: "delist", listing };
    case "ItemPriceUpdated":
      return { action: "updatePrice", listing, price };
    case "ItemAdded":
      return { action: "addToListing", listing, amount };
    case "ItemRemoved":
      return { action: "removeFromListing", listing, amount };
    default:
      return undefined;
  }
}

/** A price as the scenario writes it: a decimal string, never in exponent form. */
function decimal(value: number): string {
  return value.toLocaleString("en-US", { useGrouping: false, maximumFractionDigits: 18 });
}
