import { createECDH } from "node:crypto";
import { keccak256, stringToBytes, type Address, type Hex } from "viem";
import { lowerAddress } from "./formats.ts";
import type { AccountHandle } from "./handles.ts";

/** A deterministic private key for a label, so every run has the same accounts. */
export function keyFor(label: string): Hex {
  return keccak256(stringToBytes(`nft-service-simulator/${label}`));
}

const addresses = new Map<Hex, Address>();

/**
 * The address of a private key: the last 20 bytes of the hash of its public key (Node's native secp256k1, twice as fast
 * as a JavaScript one). Each derived once: an imported world names hundreds of accounts, each chain is started with all
 * their keys, and the world's handles ask again.
 */
export function addressOf(key: Hex): Address {
  let address = addresses.get(key);
  if (address) return address;
  const curve = createECDH("secp256k1");
  curve.setPrivateKey(Buffer.from(key.slice(2), "hex"));
  address = lowerAddress(`0x${keccak256(curve.getPublicKey().subarray(1)).slice(-40)}`);
  addresses.set(key, address);
  return address;
}

/**
 * The account a key signs for, its address derived when first asked: a large world names thousands of accounts, and a
 * start that answers from the world cache asks for a few of them.
 */
export function accountOf(key: Hex): AccountHandle {
  let address: Address | undefined;
  return {
    key,
    get address() {
      return (address ??= addressOf(key));
    },
  };
}

/** Each chain deploys from its own account, so contract addresses differ between chains. */
export function deployerKey(chainId: number): Hex {
  return keyFor(`deployer/${chainId}`);
}
