import { encodeFunctionData, type Address, type Hex } from "viem";
import type { SimChain, WriteOptions } from "../sim-chain.ts";
import { ITEM_RULES } from "./item-rules.ts";

export interface MintMoreParams {
  /** A minter, or the item's creator. */
  from: Address;
  collection: Address;
  tokenId: bigint;
  to: Address;
  amount: bigint;
}

/** More supply of an existing stackable item, up to its max supply. */
export function mintMore(chain: SimChain, p: MintMoreParams, options?: WriteOptions): Promise<Hex> {
  const data = encodeFunctionData({
    abi: chain.abis.collection,
    functionName: "mint",
    args: [p.to, p.tokenId, p.amount],
  });
  return chain.write(p.from, { to: p.collection, data }, ITEM_RULES, options);
}
