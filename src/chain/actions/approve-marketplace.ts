import { encodeFunctionData, type Address, type Hex } from "viem";
import type { SimChain, WriteOptions } from "../sim-chain.ts";

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
