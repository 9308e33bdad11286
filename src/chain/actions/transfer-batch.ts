import { encodeFunctionData, type Address, type Hex } from "viem";
import type { SimChain, WriteOptions } from "../sim-chain.ts";

export interface TransferBatchParams {
  from: Address;
  to: Address;
  /** Every token moved is of this one collection. */
  collection: Address;
  tokenIds: bigint[];
  amounts: bigint[];
}

/** safeBatchTransferFrom, sent by the holder. */
export function transferBatch(chain: SimChain, p: TransferBatchParams, options?: WriteOptions): Promise<Hex> {
  const args = [p.from, p.to, p.tokenIds, p.amounts, "0x"] as const;
  const data = encodeFunctionData({ abi: chain.abis.collection, functionName: "safeBatchTransferFrom", args });
  return chain.write(p.from, { to: p.collection, data }, {}, options);
}
