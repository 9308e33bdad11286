import { pad, toHex, type Address, type Hex } from "viem";
import { FIXED_GAS } from "./contract-call.ts";

/** A JSON-RPC call to the chain the code is placed on (EDR's provider, a node's, or a SimChain's request). */
export type ChainRequest = (method: string, params: unknown[]) => Promise<unknown>;

/**
 * Puts a contract at an address no deployment would choose, as if it had been deployed there: the chain places its
 * creation code there and traces a call to it, so its own constructor says what it writes in place (its storage is what
 * a deployment writes, whatever the compiler lays out), which the chain then writes; its runtime code then replaces the
 * creation code. Traced as a call, it takes no block. An address that holds code or has sent a transaction is refused
 * (`what` names the contract): it is some other account of the chain.
 */
export async function placeCode(
  request: ChainRequest,
  chainId: number,
  address: Address,
  /** As a deployment makes it: the creation code (its constructor's arguments appended), and the runtime code. */
  code: { creation: Hex; runtime: Hex },
  what: string,
): Promise<void> {
  const [held, nonce] = await Promise.all([
    request("eth_getCode", [address, "latest"]),
    request("eth_getTransactionCount", [address, "latest"]),
  ]);
  if (held !== "0x" || BigInt(nonce as Hex) !== 0n)
    throw new Error(`${address} is taken on chain ${chainId}: ${what} cannot be placed there`);
  await request("hardhat_setCode", [address, code.creation]);
  // The storage the creation code writes when called, written in place in its order.
  const call = { to: address, data: "0x", gas: toHex(FIXED_GAS) };
  const trace = (await request("debug_traceCall", [call, "latest"])) as { failed: boolean; structLogs: StructLog[] };
  if (trace.failed) throw new Error(`${what}'s set-up at ${address} failed on chain ${chainId}`);
  for (const log of trace.structLogs.filter(({ op }) => op === "SSTORE")) {
    const [value, slot] = log.stack!.slice(-2).map(word);
    await request("hardhat_setStorageAt", [address, toHex(BigInt(slot!)), value]);
  }
  await request("hardhat_setCode", [address, code.runtime]);
}

interface StructLog {
  op: string;
  stack?: string[];
}

/** A stack word as 32 bytes of hex (traces write it with or without 0x, padded or not). */
const word = (text: string): Hex => pad(`0x${text.replace(/^0x/, "") || "0"}` as Hex, { size: 32 });
