import type { ActionName, ActionOf, ScenarioCollection, ScenarioItem } from "../schemas/scenario.ts";
import { CURRENCY_DECIMALS } from "../chain/currencies.ts";

/** One timeline entry in replay order; a check may settle the chain it runs on. */
export interface ActionStep<Action = ActionOf<ActionName>> {
  kind: "action";
  at: number;
  chainId: number;
  path: string;
  action: Action;
}

/** What the checks need of an item: its collection, and how many tokens it has. */
export type KnownItem = Pick<ScenarioItem, "collection" | "isStackable" | "initialSupply">;

export interface ListingState {
  path: string;
  chainId: number;
  remaining: number;
  currency: "native" | "stablecoin";
  closedBy?: string;
}

/** What the checks know while they walk the timeline in time order. */
export interface TimelineState {
  problems: string[];
  items: Map<string, KnownItem>;
  collections: Map<string, Pick<ScenarioCollection, "chainId">>;
  /** Items some addItem adds, anywhere in the timeline. */
  addedAnywhere: Set<string>;
  /** Collections created so far. */
  created: Set<string>;
  /** Items added so far, with the path of their addItem. */
  added: Map<string, string>;
  listings: Map<string, ListingState>;
}

type Check<Name extends ActionName> = (state: TimelineState, step: ActionStep<ActionOf<Name>>) => void;

/** The references of one timeline entry, by action: items after they are added, listings while they are open. */
export const ACTION_CHECKS: { [Name in ActionName]: Check<Name> } = {
  addItem(state, step) {
    const { action, path } = step;
    const found = checkItem(state, step, path, action.item);
    if (!found) return;
    if (state.added.has(action.item))
      state.problems.push(`${path}.item: item '${action.item}' is already added by ${state.added.get(action.item)}`);
    else if (state.collections.has(found.collection) && !state.created.has(found.collection))
      state.problems.push(`${path}.at: collection '${found.collection}' is not created yet at ${action.at}`);
    state.added.set(action.item, path);
  },

  mint(state, step) {
    const found = checkItem(state, step, step.path, step.action.item);
    if (found?.isStackable === false)
      state.problems.push(
        `${step.path}.item: '${step.action.item}' is not stackable; each of its tokens has a supply of one`,
      );
  },

  transfer: (state, step) => void checkItem(state, step, step.path, step.action.item, step.action.copy),
  burn: (state, step) => void checkItem(state, step, step.path, step.action.item, step.action.copy),

  transferBatch(state, step) {
    const batch = step.action.items.map((entry, j) =>
      checkItem(state, step, `${step.path}.items[${j}]`, entry.item, entry.copy),
    );
    const owners = new Set(batch.filter(Boolean).map((found) => found!.collection));
    if (owners.size > 1)
      state.problems.push(
        `${step.path}.items: a batch moves tokens of one collection only, not of ${[...owners].join(", ")}`,
      );
    step.chainId = state.collections.get(batch.find(Boolean)?.collection ?? "")?.chainId ?? 0;
  },

  list(state, step) {
    const { action, path } = step;
    checkItem(state, step, path, action.item, action.copy);
    checkPrice(state, path, action.price, action.currency);
    const used = state.listings.get(action.listing);
    if (used) state.problems.push(`${path}.listing: listing '${action.listing}' is already used by ${used.path}`);
    else
      state.listings.set(action.listing, {
        path,
        chainId: step.chainId,
        remaining: action.amount,
        currency: action.currency,
      });
  },

  updatePrice(state, step) {
    const listing = openListing(state, step);
    if (listing) checkPrice(state, step.path, step.action.price, listing.currency);
  },

  addToListing(state, step) {
    const listing = openListing(state, step);
    if (listing) listing.remaining += step.action.amount;
  },

  removeFromListing(state, step) {
    const { action, path } = step;
    const listing = openListing(state, step);
    if (listing && action.amount >= listing.remaining) {
      state.problems.push(
        `${path}.amount: ${action.amount} would empty listing '${action.listing}' (${listing.remaining} left); use ` +
          `delist`,
      );
    } else if (listing) listing.remaining -= action.amount;
  },

  delist(state, step) {
    const listing = openListing(state, step);
    if (listing) listing.closedBy = step.path;
  },

  buy(state, step) {
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
};

/** An item the entry uses: it exists, is added before (unless this is its addItem), and has the copy asked for. */
function checkItem(
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
function openListing(
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

function checkPrice(state: TimelineState, path: string, price: string, currency: "native" | "stablecoin"): void {
  const decimals = price.split(".")[1]?.length ?? 0;
  if (decimals > CURRENCY_DECIMALS[currency])
    state.problems.push(
      `${path}.price: ${currency} has ${CURRENCY_DECIMALS[currency]} decimals, '${price}' has ${decimals}`,
    );
  if (!/[1-9]/.test(price)) state.problems.push(`${path}.price must be above 0`);
}
