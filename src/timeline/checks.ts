import { CURRENCY_DECIMALS, type CurrencyName } from "../chain/currencies.ts";
import type { ActionStep, KnownItem, ListingState, TimelineState } from "./action.ts";

// The checks several actions share: an item used after it is added, a listing while it is open, a price the
// currency can hold.

/** An item the entry uses: it exists, is added before (unless this is its addItem), and has the copy asked for. */
export function checkItem(
  state: TimelineState,
  step: ActionStep,
  where: string,
  id: string,
  copy?: number,
): KnownItem | undefined {
  const { action } = step;
  const found = state.items.get(id);
  if (!found) return void state.problems.push(`${where}.item: unknown item '${id}'`);
  if (action.action !== "addItem" && !state.added.has(id)) {
    const when = state.addedAnywhere.has(id) ? "" : " (no addItem adds it)";
    state.problems.push(`${where}.item: item '${id}' is used at ${action.at} before it is added${when}`);
  }
  if (copy !== undefined) {
    const copies = found.isStackable === false ? found.initialSupply : 1;
    if (copy > copies)
      state.problems.push(`${where}.copy: item '${id}' has ${copies} token${copies === 1 ? "" : "s"}, not ${copy}`);
  }
  return found;
}

/** The listing the entry names, if it is listed before and still open; the entry runs on its chain. */
export function openListing(
  state: TimelineState,
  step: ActionStep<{ at: string; listing: string }>,
): ListingState | undefined {
  const { action, path } = step;
  const listing = state.listings.get(action.listing);
  if (!listing)
    return void state.problems.push(`${path}.listing: listing '${action.listing}' is not listed before ${action.at}`);
  if (listing.closedBy)
    return void state.problems.push(
      `${path}.listing: listing '${action.listing}' is already closed by ${listing.closedBy}`,
    );
  step.chainId = listing.chainId;
  return listing;
}

export function checkPrice(state: TimelineState, path: string, price: string, currency: CurrencyName): void {
  const decimals = price.split(".")[1]?.length ?? 0;
  if (decimals > CURRENCY_DECIMALS[currency])
    state.problems.push(
      `${path}.price: ${currency} has ${CURRENCY_DECIMALS[currency]} decimals, '${price}' has ${decimals}`,
    );
  if (!/[1-9]/.test(price)) state.problems.push(`${path}.price must be above 0`);
}
