import { parseUnits } from "viem";
import { CURRENCY_DECIMALS, currencyAddress } from "../chain/currencies.ts";
import type { WriteOptions } from "../chain/sim-chain.ts";
import { timelineAction, type SendContext } from "./action.ts";
import { checkItem, checkPrice } from "./checks.ts";
import { Amount, Copy, Currency, Handle, Price } from "./fields.ts";
import { callMarketplace } from "./marketplace.ts";

/** Lets the marketplace take the seller's tokens of the item's collection, where it may not yet. */
function approve(replay: SendContext, entry: { item: string; seller: string }, at: WriteOptions) {
  return replay.approveMarketplace(replay.account(entry.seller), replay.itemCollection(entry.item), at);
}

/** Puts the seller's tokens up for sale (approving the marketplace first): they move into its escrow. */
export const list = timelineAction({
  name: "list",
  fields: {
    listing: Handle,
    item: Handle,
    copy: Copy,
    seller: Handle,
    amount: Amount,
    price: Price,
    currency: Currency,
  },
  accounts: ["seller"],

  check(state, step) {
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
        price: action.price,
        item: action.item,
        copy: action.copy ?? 1,
        seller: action.seller,
      });
  },

  async rule(ledger, entry, path) {
    ledger.debit(path, entry.item, entry.copy ?? 1, entry.seller, BigInt(entry.amount));
  },

  setUp: approve,

  async send(replay, entry, at) {
    const { collection, tokenId } = replay.token(entry.item, entry.copy);
    const seller = replay.account(entry.seller);
    await approve(replay, entry, at);
    const currency = currencyAddress(entry.currency, replay.chain.contracts.stablecoin);
    const decimals = CURRENCY_DECIMALS[entry.currency];
    const price = parseUnits(entry.price, decimals);
    const args = [collection, tokenId, BigInt(entry.amount), price, currency] as const;
    const hash = await callMarketplace(replay.chain, seller, { functionName: "list", args }, at);
    replay.listingCount += 1n;
    replay.landListing(entry.listing, { id: replay.listingCount, seller, price, currency, decimals });
    return hash;
  },
});
