import { encodeFunctionData, type Address, type Hex } from "viem";
import type { SimChain, WriteOptions } from "../sim-chain.ts";
import { MARKET_RULES } from "./market-rules.ts";

export interface AddToListingParams {
  seller: Address;
  listingId: bigint;
  /** How many more tokens go into escrow. */
  amount: bigint;
}

/** Puts more of the seller's tokens into an open listing. */
export function addToListing(chain: SimChain, p: AddToListingParams, options?: WriteOptions): Promise<Hex> {
  const data = encodeFunctionData({
    abi: chain.abis.marketplace,
    functionName: "addToListing",
    args: [p.listingId, p.amount],
  });
  return chain.write(p.seller, { to: chain.contracts.marketplace, data }, MARKET_RULES, options);
}
