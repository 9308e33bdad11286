import { encodeFunctionData, type Address, type Hex } from "viem";
import type { SimChain, WriteOptions } from "../sim-chain.ts";
import { MARKET_RULES } from "./market-rules.ts";

export interface BuyParams {
  buyer: Address;
  listingId: bigint;
  amount: bigint;
  /**
   * Native-coin listings are paid with the transaction (price × amount); ERC-20 ones by allowance (approveCurrency).
   */
  value?: bigint;
}

/** Buys `amount` from an open listing (a sale: Swapped). */
export function buy(chain: SimChain, p: BuyParams, options?: WriteOptions): Promise<Hex> {
  const data = encodeFunctionData({ abi: chain.abis.marketplace, functionName: "buy", args: [p.listingId, p.amount] });
  return chain.write(p.buyer, { to: chain.contracts.marketplace, data, value: p.value }, MARKET_RULES, options);
}
