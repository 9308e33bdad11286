import { encodeFunctionData, type Address, type Hex } from "viem";
import type { SimChain, WriteOptions } from "../sim-chain.ts";

// What a timeline entry sends before its own transaction: a seller's approval of the marketplace, a stablecoin buyer's
// coins and their approval.

/** Lets the marketplace take `owner`'s tokens of a collection into escrow when they list. */
export function approveMarketplace(
  chain: SimChain,
  p: { owner: Address; collection: Address },
  options?: WriteOptions,
): Promise<Hex> {
  const data = encodeFunctionData({
    abi: chain.abis.collection,
    functionName: "setApprovalForAll",
    args: [chain.contracts.marketplace, true],
  });
  return chain.write(p.owner, { to: p.collection, data }, {}, options);
}

/** Lets the marketplace take up to `amount` of `owner`'s stablecoins when they buy. */
export function approveCurrency(
  chain: SimChain,
  p: { owner: Address; amount: bigint },
  options?: WriteOptions,
): Promise<Hex> {
  const data = encodeFunctionData({
    abi: chain.abis.stablecoin,
    functionName: "approve",
    args: [chain.contracts.marketplace, p.amount],
  });
  return chain.write(p.owner, { to: chain.contracts.stablecoin, data }, {}, options);
}

/** The test stablecoin's open faucet: anyone may mint themselves coins. */
export function faucet(chain: SimChain, p: { to: Address; amount: bigint }, options?: WriteOptions): Promise<Hex> {
  const data = encodeFunctionData({ abi: chain.abis.stablecoin, functionName: "mint", args: [p.to, p.amount] });
  return chain.write(p.to, { to: chain.contracts.stablecoin, data }, {}, options);
}
