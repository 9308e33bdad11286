import type { Address } from "viem";
import type { SimChain } from "../sim-chain.ts";
import { MINTER_ROLE } from "./minter-role.ts";

/** Whether a wallet holds the collection's minter role (the chain decides who may mint). */
export function hasMinterRole(chain: SimChain, p: { collection: Address; wallet: Address }): Promise<boolean> {
  return chain.publicClient.readContract({ address: p.collection, abi: chain.abis.collection, functionName: "hasRole", args: [MINTER_ROLE, p.wallet] });
}
