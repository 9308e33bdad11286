import { encodeFunctionData, keccak256, stringToBytes, type Address, type Hex } from "viem";
import type { SimChain, WriteOptions } from "../sim-chain.ts";
import { poolOf } from "../node/pools.ts";

/** The collection's role for developer wallets that may create items and mint. */
export const MINTER_ROLE = keccak256(stringToBytes("MINTER_ROLE"));

export interface MinterRoleParams {
  /** The collection's admin (its owner). */
  admin: Address;
  collection: Address;
  wallet: Address;
}

/**
 * Grants a developer wallet the collection's minter role, with every other wallet of its pool (a keys file may give it
 * several) before it: a mint is tried first as the wallet itself, so the whole pool may mint once it passes. Answers
 * the last transaction's hash (the admin's transactions are mined in the order sent).
 */
export async function grantMinter(chain: SimChain, p: MinterRoleParams, options?: WriteOptions): Promise<Hex> {
  const [own, ...others] = poolOf(chain, p.wallet);
  for (const wallet of others) await setMinterRole(chain, "grantRole", { ...p, wallet }, options);
  return setMinterRole(chain, "grantRole", { ...p, wallet: own! }, options);
}

/**
 * Takes the collection's minter role from a developer wallet first (the next mint, tried as the wallet itself, is
 * refused), then from every other wallet of its pool. Answers the last transaction's hash.
 */
export async function revokeMinter(chain: SimChain, p: MinterRoleParams, options?: WriteOptions): Promise<Hex> {
  let hash = await setMinterRole(chain, "revokeRole", p, options);
  for (const wallet of poolOf(chain, p.wallet).slice(1))
    hash = await setMinterRole(chain, "revokeRole", { ...p, wallet }, options);
  return hash;
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
