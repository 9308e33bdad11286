import { encodeFunctionData, type Address, type EncodeFunctionDataParameters, type Hex } from "viem";
import type { Abis } from "../core/abi.ts";
import type { RevertRules } from "../chain/revert.ts";
import type { SimChain, WriteOptions } from "../chain/sim-chain.ts";
import type { SendContext } from "./action.ts";

/** The marketplace's refusals, as a seller or buyer reads them. */
const MARKETPLACE_REVERTS: RevertRules = {
  NotSeller: ([listingId, account]) => `${account} is not the seller of listing ${listingId}`,
  ListingNotActive: ([listingId]) => `listing ${listingId} is not open`,
  WrongPayment: ([expected, sent]) => `the payment must be ${expected} wei, not ${sent}`,
  InvalidAmount: () => "the amount must be at least 1 and at most what is listed",
  InvalidPrice: () => "the price must be above 0",
  PaymentFailed: ([to]) => `paying ${to} failed`,
};

/** Sends a call of the marketplace's from `from`, with `value` wei. */
export function callMarketplace(
  chain: SimChain,
  from: Address,
  call: Omit<EncodeFunctionDataParameters<Abis["marketplace"]>, "abi">,
  at: WriteOptions,
  value?: bigint,
): Promise<Hex> {
  const data = encodeFunctionData({ abi: chain.abis.marketplace, ...call } as never);
  return chain.write(from, { to: chain.contracts.marketplace, data, value }, MARKETPLACE_REVERTS, at);
}

/** Sends a call of the marketplace's on an open listing (its id, then `args`), from its seller. */
export function callAsSeller(
  replay: SendContext,
  listing: string,
  functionName: "updatePrice" | "addToListing" | "removeFromListing" | "delist",
  at: WriteOptions,
  ...args: bigint[]
): Promise<Hex> {
  const { seller, id } = replay.listings.get(listing)!;
  return callMarketplace(replay.chain, seller, { functionName, args: [id, ...args] } as never, at);
}
