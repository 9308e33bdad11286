import { zeroAddress } from "viem";
import type { ItemEvent } from "../schemas/item-event.ts";

// One live history event (with those of its transaction) as the timeline entry that makes it again.

export const MINTER = "importer";

/** An entry, and how many transactions the replay sends before its own (approvals): its block is that many lower. */
export type Entry = Record<string, unknown> & { extraBlocks: number };

export function transferEntry(
  event: ItemEvent,
  item: string,
  copy: number | undefined,
  account: (address: string) => string,
): Entry {
  const amount = Number(event.amount);
  const which = { item, ...(copy === undefined ? {} : { copy }) };
  if (event.from === zeroAddress)
    return { action: "mint", ...which, by: MINTER, to: account(event.to), amount, extraBlocks: 0 };
  if (event.to === zeroAddress) return { action: "burn", ...which, from: account(event.from), amount, extraBlocks: 0 };
  return { action: "transfer", ...which, from: account(event.from), to: account(event.to), amount, extraBlocks: 0 };
}

export function marketEntry(
  event: ItemEvent,
  item: string,
  copy: number | undefined,
  account: (address: string) => string,
  approved: Set<string>,
  firstBuys: ReadonlySet<string>,
): Entry | undefined {
  if (!("listingId" in event) && !/^[A-Za-z]+-\d+-/.test(event.id)) return undefined;
  const listing = `l${event.chainId}-${event.id.split("-")[1]}`;
  const market = event as ItemEvent & { price: number; currency: string };
  const price = decimal(market.price);
  const amount = Number(event.amount);
  switch (event.event) {
    case "ItemListed": {
      const seller = account(event.from);
      const first = !approved.has(seller);
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
        extraBlocks: first ? 1 : 0,
      };
    }
    case "Swapped": {
      const first = market.currency !== zeroAddress && firstBuys.has(purchaseKey(event));
      return { action: "buy", listing, buyer: account(event.to), amount, extraBlocks: first ? 2 : 0 };
    }
    case "ItemDelisted":
      return { action: "delist", listing, extraBlocks: 0 };
    case "ItemPriceUpdated":
      return { action: "updatePrice", listing, price, extraBlocks: 0 };
    case "ItemAdded":
      return { action: "addToListing", listing, amount, extraBlocks: 0 };
    case "ItemRemoved":
      return { action: "removeFromListing", listing, amount, extraBlocks: 0 };
    default:
      return undefined;
  }
}

/**
 * Each buyer's first stablecoin purchase on each chain (purchaseKey), in time order across every collection: the replay
 * gives a buyer coins and an allowance once a chain, two transactions before that purchase.
 */
export function firstStablecoinBuys(events: ItemEvent[]): Set<string> {
  const first = new Map<string, ItemEvent>();
  const buys = events.filter(
    (event) => event.event === "Swapped" && (event as { currency?: string }).currency !== zeroAddress,
  );
  for (const event of buys.sort((a, b) => a.blockNumber - b.blockNumber || logIndex(a) - logIndex(b))) {
    const buyer = `${event.chainId}/${event.to.toLowerCase()}`;
    if (!first.has(buyer)) first.set(buyer, event);
  }
  return new Set([...first.values()].map(purchaseKey));
}

const purchaseKey = (event: ItemEvent) => `${event.chainId}/${event.id}`;
const logIndex = (event: ItemEvent) => Number(event.id.split("-").at(-1));

/** A price as the scenario writes it: a decimal string, never in exponent form. */
function decimal(value: number): string {
  return value.toLocaleString("en-US", { useGrouping: false, maximumFractionDigits: 18 });
}
