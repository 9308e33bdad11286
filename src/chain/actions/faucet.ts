import { encodeFunctionData, type Address, type Hex } from "viem";
import type { SimChain, WriteOptions } from "../sim-chain.ts";

/** The test stablecoin's open faucet: anyone may mint themselves coins. */
export function faucet(chain: SimChain, p: { to: Address; amount: bigint }, options?: WriteOptions): Promise<Hex> {
  const data = encodeFunctionData({ abi: chain.abis.stablecoin, functionName: "mint", args: [p.to, p.amount] });
  return chain.write(p.to, { to: chain.contracts.stablecoin, data }, {}, options);
}
