import { encodeFunctionData, type Address, type Hex } from "viem";
import type { SimChain, WriteOptions } from "../sim-chain.ts";
import { MARKET_RULES } from "./market-rules.ts";

export interface RemoveFromListingParams {
  seller: Address;
  listingId: bigint;
  /** How many tokens come back out of escrow. */
  amount: bigint;
}

/** Takes part of an open listing back (not all of it: that is delist). */
export function removeFromListing(chain: SimChain, p: RemoveFromListingParams, options?: WriteOptions): Promise<Hex> {
  const data = encodeFunctionData({
    abi: chain.abis.marketplace,
    functionName: "removeFromListing",
    args: [p.listingId, p.amount],
  });
  return chain.write(p.seller, { to: chain.contracts.marketplace, data }, MARKET_RULES, options);
}
