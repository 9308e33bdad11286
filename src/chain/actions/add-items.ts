import { encodeFunctionData, type Address, type Hex } from "viem";
import type { SimChain, WriteOptions } from "../sim-chain.ts";
import { ITEM_RULES } from "./add-item.ts";

export interface AddItemsParams {
  /** A wallet holding the collection's minter role. */
  from: Address;
  collection: Address;
  to: Address;
  /** How many token ids of supply one (a non-stackable item). */
  count: bigint;
  royaltyPerMille: bigint;
  /** The item's description as it goes on chain (src/metadata/codec.ts), emitted once in ItemDescribed. */
  metadata: Hex;
}

/** A non-stackable item: `count` new token ids of supply one each, all minted to `to`. */
export function addItems(chain: SimChain, p: AddItemsParams, options?: WriteOptions): Promise<Hex> {
  const data = encodeFunctionData({
    abi: chain.abis.collection,
    functionName: "addItems",
    args: [p.to, p.count, p.royaltyPerMille, p.metadata],
  });
  return chain.write(p.from, { to: p.collection, data }, ITEM_RULES, options);
}
