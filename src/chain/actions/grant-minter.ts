import { encodeFunctionData, type Address, type Hex } from "viem";
import type { SimChain, WriteOptions } from "../sim-chain.ts";
import { MINTER_ROLE } from "./minter-role.ts";

export interface GrantMinterParams {
  /** The collection's admin (its owner). */
  admin: Address;
  collection: Address;
  wallet: Address;
}

/** Grants a developer wallet the collection's minter role. */
export function grantMinter(chain: SimChain, p: GrantMinterParams, options?: WriteOptions): Promise<Hex> {
  const data = encodeFunctionData({ abi: chain.abis.collection, functionName: "grantRole", args: [MINTER_ROLE, p.wallet] });
  return chain.write(p.admin, { to: p.collection, data }, {}, options);
}
