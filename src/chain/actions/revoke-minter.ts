import { encodeFunctionData, type Address, type Hex } from "viem";
import type { SimChain, WriteOptions } from "../sim-chain.ts";
import { MINTER_ROLE } from "./minter-role.ts";

export interface RevokeMinterParams {
  /** The collection's admin (its owner). */
  admin: Address;
  collection: Address;
  wallet: Address;
}

/** Takes the collection's minter role from a developer wallet. */
export function revokeMinter(chain: SimChain, p: RevokeMinterParams, options?: WriteOptions): Promise<Hex> {
  const data = encodeFunctionData({ abi: chain.abis.collection, functionName: "revokeRole", args: [MINTER_ROLE, p.wallet] });
  return chain.write(p.admin, { to: p.collection, data }, {}, options);
}
