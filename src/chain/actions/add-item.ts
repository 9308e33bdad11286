import { encodeFunctionData, parseEventLogs, type Address, type Hex, type TransactionReceipt } from "viem";
import type { RevertRules } from "../revert.ts";
import type { SimChain, WriteOptions } from "../sim-chain.ts";

/** The collection contract's refusals of new items and supply, as the mint request's fields read them. */
export const ITEM_RULES: RevertRules = {
  RoyaltyTooHigh: ([fee]) =>
    `item.royaltyFee ${fee} is 30% or more; the collection refuses royalties of 300 per mille or more`,
  SupplyAboveMax: ([, requested, max]) => `item.initialSupply ${requested} is above item.maximumSupply ${max}`,
  InvalidAmount: () => "item.initialSupply must be at least 1",
};

export interface AddItemParams {
  /** A wallet holding the collection's minter role. */
  from: Address;
  collection: Address;
  to: Address;
  initialSupply: bigint;
  maxSupply: bigint;
  royaltyPerMille: bigint;
  /** The item's description as it goes on chain (src/metadata/codec.ts), emitted in ItemDescribed. */
  metadata: Hex;
}

/** A stackable item: the next token id, with `initialSupply` minted to `to` and room up to `maxSupply`. */
export function addItem(chain: SimChain, p: AddItemParams, options?: WriteOptions): Promise<Hex> {
  const args = [p.to, p.initialSupply, p.maxSupply, p.royaltyPerMille, p.metadata] as const;
  const data = encodeFunctionData({ abi: chain.abis.collection, functionName: "addItem", args });
  return chain.write(p.from, { to: p.collection, data }, ITEM_RULES, options);
}

/** A non-stackable item's: `count` token ids of supply one, its description emitted once in ItemDescribed. */
export type AddItemsParams = Omit<AddItemParams, "initialSupply" | "maxSupply"> & { count: bigint };

/** A non-stackable item: `count` new token ids of supply one each, all minted to `to`. */
export function addItems(chain: SimChain, p: AddItemsParams, options?: WriteOptions): Promise<Hex> {
  const args = [p.to, p.count, p.royaltyPerMille, p.metadata] as const;
  const data = encodeFunctionData({ abi: chain.abis.collection, functionName: "addItems", args });
  return chain.write(p.from, { to: p.collection, data }, ITEM_RULES, options);
}

/** The token ids an addItem or addItems transaction created, in order. */
export function createdTokenIds(chain: SimChain, receipt: TransactionReceipt): bigint[] {
  return parseEventLogs({ abi: chain.abis.collection, eventName: "ItemCreated", logs: receipt.logs }).map(
    (log) => log.args.tokenId,
  );
}
