import { keccak256, stringToBytes, type Hex } from "viem";
import { privateKeyToAddress } from "viem/accounts";
import type { Address } from "viem";
import { lowerAddress } from "./address.ts";

/** A deterministic private key for a label, so every run has the same accounts. */
export function keyFor(label: string): Hex {
  return keccak256(stringToBytes(`nft-service-simulator/${label}`));
}

export function addressOf(key: Hex): Address {
  return lowerAddress(privateKeyToAddress(key));
}

/** Each chain deploys from its own account, so contract addresses differ between chains. */
export function deployerKey(chainId: number): Hex {
  return keyFor(`deployer/${chainId}`);
}
