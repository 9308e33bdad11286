import { encodeFunctionData, type Address, type Hex } from "viem";
import type { SimChain, WriteOptions } from "../sim-chain.ts";

export interface BurnParams {
  /** The holder (or an operator it approved). */
  from: Address;
  collection: Address;
  tokenId: bigint;
  amount: bigint;
}

/** Consumes `amount` of the holder's tokens (a transfer to the zero address). */
export function burn(chain: SimChain, p: BurnParams, options?: WriteOptions): Promise<Hex> {
  const data = encodeFunctionData({
    abi: chain.abis.collection,
    functionName: "burn",
    args: [p.from, p.tokenId, p.amount],
  });
  return chain.write(p.from, { to: p.collection, data }, {}, options);
}
