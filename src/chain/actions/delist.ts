import { encodeFunctionData, type Address, type Hex } from "viem";
import type { SimChain, WriteOptions } from "../sim-chain.ts";
import { MARKET_RULES } from "./market-rules.ts";

/** Closes an open listing; what is left in escrow goes back to the seller. */
export function delist(
  chain: SimChain,
  p: { seller: Address; listingId: bigint },
  options?: WriteOptions,
): Promise<Hex> {
  const data = encodeFunctionData({ abi: chain.abis.marketplace, functionName: "delist", args: [p.listingId] });
  return chain.write(p.seller, { to: chain.contracts.marketplace, data }, MARKET_RULES, options);
}
