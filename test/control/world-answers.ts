import { createHash } from "node:crypto";
import { encodeAbiParameters, keccak256, toHex, type Address } from "viem";
import type { Simulator } from "../../src/simulator/simulator.ts";
import { readWorld } from "../world-reads.ts";

/**
 * Every answer a client can get of the world, by what it asked (`readWorld`: the collections, each item's whole history
 * and metadata, the control API's items, the world's handles and each chain's head). Two worlds that answer alike give
 * equal maps.
 */
export async function everyAnswer(sim: { url: string }): Promise<Map<string, string>> {
  return (await readWorld(sim.url)).answers;
}

/** A digest of every answer, to say in one line that two worlds answer byte for byte alike. */
export function digestOf(answers: Map<string, string>): string {
  return createHash("sha256")
    .update(JSON.stringify([...answers]))
    .digest("hex");
}

/**
 * An ERC1155 balance changed in the contract's storage, where no log tells the index (OpenZeppelin 5: `_balances` at
 * slot 0): only a transaction can find out. Keep what follows short: a state EDR rebuilds after it left its cache of 16
 * loses what hardhat_setStorageAt wrote.
 */
export async function setBalanceBehindTheIndex(
  sim: Simulator,
  chainId: number,
  item: { collection: Address; tokenId: bigint },
  holder: Address,
  amount: bigint,
): Promise<void> {
  const chain = sim.chains.get(chainId)!;
  const inner = keccak256(encodeAbiParameters([{ type: "uint256" }, { type: "uint256" }], [item.tokenId, 0n]));
  const slot = keccak256(encodeAbiParameters([{ type: "address" }, { type: "bytes32" }], [holder, inner]));
  const held = BigInt((await chain.request("eth_getStorageAt", [item.collection, slot, "latest"])) as string);
  const known = (await chain.read()).balances.get(`${item.collection}-${item.tokenId}`)?.get(holder);
  if (held !== known) throw new Error(`slot ${slot} holds ${held}, not the balance the index knows (${known})`);
  await chain.request("hardhat_setStorageAt", [item.collection, slot, toHex(amount, { size: 32 })]);
}
