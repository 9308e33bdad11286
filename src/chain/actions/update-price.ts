import { encodeFunctionData, type Address, type Hex } from "viem";
import type { SimChain, WriteOptions } from "../sim-chain.ts";
import { MARKET_RULES } from "./market-rules.ts";

export interface UpdatePriceParams {
  seller: Address;
  listingId: bigint;
  /** New price per item, in the currency's smallest unit. */
  price: bigint;
}

/** Changes an open listing's price. */
export function updatePrice(chain: SimChain, p: UpdatePriceParams, options?: WriteOptions): Promise<Hex> {
  const data = encodeFunctionData({
    abi: chain.abis.marketplace,
    functionName: "updatePrice",
    args: [p.listingId, p.price],
  });
  return chain.write(p.seller, { to: chain.contracts.marketplace, data }, MARKET_RULES, options);
}
