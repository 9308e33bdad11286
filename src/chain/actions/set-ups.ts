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
  const args = [chain.contracts.marketplace, true] as const;
  const data = encodeFunctionData({ abi: chain.abis.collection, functionName: "setApprovalForAll", args });
  return chain.write(p.owner, { to: p.collection, data }, {}, options);
}

/**
 * Gives `buyer` `amount` stablecoins from the test stablecoin's open faucet (anyone may mint themselves coins), then
 * lets the marketplace take up to `allowance` of them when they buy.
 */
export async function fundStablecoins(
  chain: SimChain,
  p: { buyer: Address; amount: bigint; allowance: bigint },
  options?: WriteOptions,
): Promise<void> {
  const { abis, contracts } = chain;
  const coins = encodeFunctionData({ abi: abis.stablecoin, functionName: "mint", args: [p.buyer, p.amount] });
  const allowance = [contracts.marketplace, p.allowance] as const;
  const approval = encodeFunctionData({ abi: abis.stablecoin, functionName: "approve", args: allowance });
  for (const data of [coins, approval]) await chain.write(p.buyer, { to: contracts.stablecoin, data }, {}, options);
}
