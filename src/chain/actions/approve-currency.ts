import { encodeFunctionData, type Address, type Hex } from "viem";
import type { SimChain, WriteOptions } from "../sim-chain.ts";

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
