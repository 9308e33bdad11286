import { encodeFunctionData, keccak256, stringToBytes, type Address, type Hex } from "viem";
import type { SimChain, WriteOptions } from "../sim-chain.ts";

/** The collection's role for developer wallets that may create items and mint. */
export const MINTER_ROLE = keccak256(stringToBytes("MINTER_ROLE"));

export interface MinterRoleParams {
  /** The collection's admin (its owner). */
  admin: Address;
  collection: Address;
  wallet: Address;
}

/** Grants a developer wallet the collection's minter role. */
export function grantMinter(chain: SimChain, p: MinterRoleParams, options?: WriteOptions): Promise<Hex> {
  return setMinterRole(chain, "grantRole", p, options);
}

/** Takes the collection's minter role from a developer wallet. */
export function revokeMinter(chain: SimChain, p: MinterRoleParams, options?: WriteOptions): Promise<Hex> {
  return setMinterRole(chain, "revokeRole", p, options);
}

/** Whether a wallet holds the collection's minter role (the chain decides who may mint). */
export function hasMinterRole(chain: SimChain, p: { collection: Address; wallet: Address }): Promise<boolean> {
  return chain.publicClient.readContract({
    address: p.collection,
    abi: chain.abis.collection,
    functionName: "hasRole",
    args: [MINTER_ROLE, p.wallet],
  });
}

function setMinterRole(
  chain: SimChain,
  functionName: "grantRole" | "revokeRole",
  p: MinterRoleParams,
  options?: WriteOptions,
): Promise<Hex> {
  const data = encodeFunctionData({ abi: chain.abis.collection, functionName, args: [MINTER_ROLE, p.wallet] });
  return chain.write(p.admin, { to: p.collection, data }, {}, options);
}
