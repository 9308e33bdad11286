import { encodeFunctionData, type Address, type Hex } from "viem";
import type { SimChain, WriteOptions } from "../sim-chain.ts";
import { MARKET_RULES } from "./market-rules.ts";

export interface ListParams {
  /** Holds the tokens and has approved the marketplace (approveMarketplace). */
  seller: Address;
  collection: Address;
  tokenId: bigint;
  amount: bigint;
  /** Per item, in the currency's smallest unit. */
  price: bigint;
  /** The zero address for the chain's native coin, else an ERC-20. */
  currency: Address;
}

/** Puts tokens up for sale; they move into the marketplace's escrow. */
export function list(chain: SimChain, p: ListParams, options?: WriteOptions): Promise<Hex> {
  const args = [p.collection, p.tokenId, p.amount, p.price, p.currency] as const;
  const data = encodeFunctionData({ abi: chain.abis.marketplace, functionName: "list", args });
  return chain.write(p.seller, { to: chain.contracts.marketplace, data }, MARKET_RULES, options);
}
