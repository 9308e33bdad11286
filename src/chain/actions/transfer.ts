import { encodeFunctionData, type Address, type Hex } from "viem";
import type { SimChain, WriteOptions } from "../sim-chain.ts";

export interface TransferParams {
  from: Address;
  to: Address;
  collection: Address;
  tokenId: bigint;
  amount: bigint;
}

/** safeTransferFrom, sent by the holder. */
export function transfer(chain: SimChain, p: TransferParams, options?: WriteOptions): Promise<Hex> {
  const args = [p.from, p.to, p.tokenId, p.amount, "0x"] as const;
  const data = encodeFunctionData({ abi: chain.abis.collection, functionName: "safeTransferFrom", args });
  return chain.write(p.from, { to: p.collection, data }, {}, options);
}
