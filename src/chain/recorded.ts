import { toHex, type Address, type Hex } from "viem";
import type { RequestProvider } from "./block-batcher.ts";
import { pendingRaw } from "./raw-tx.ts";
import type { ChainRecorder } from "./recorder.ts";

/**
 * Sends alone and records the transaction as sent, with the time of the block it landed in (durable once the caller
 * flushes). A transaction that reverted is mined all the same (EDR names it in the error): it is recorded too, then
 * the error thrown.
 */
export function sendRecorded(
  provider: RequestProvider,
  chainId: number,
  recorder: ChainRecorder,
  sendable: Record<string, string>,
  send: () => Promise<Hex>,
): Promise<Hex> {
  const { from, to, data, value, gas } = sendable as { from: Address; to: Address; data: Hex; value?: Hex; gas: Hex };
  return recorder.exclusive(async () => {
    let failed: { error: unknown } | undefined;
    const hash = await send().catch((error: { transactionHash?: Hex }) => {
      if (!error?.transactionHash) throw error;
      failed = { error };
      return error.transactionHash;
    });
    const block = (await provider.request({ method: "eth_getBlockByNumber", params: ["latest", false] })) as {
      timestamp: Hex;
      transactions: Hex[];
    };
    // One left in the pool is recorded as signed: the replay puts the same bytes back there, for the block that mined
    // it.
    const mined = block.transactions.includes(hash)
      ? { at: Number(BigInt(block.timestamp)) }
      : await pendingRaw(provider, hash);
    recorder.append({ t: "tx", chainId, from, to, data, gas, ...(value ? { value } : {}), ...mined });
    if (failed) throw failed.error;
    return hash;
  });
}

/** Runs a call that may mine a block and records it with that block's time, even if the call then failed. */
export async function runRecorded<T>(
  provider: RequestProvider,
  call: () => Promise<T>,
  record: (mined: { at?: number }) => void,
): Promise<T> {
  const before = BigInt((await provider.request({ method: "eth_blockNumber", params: [] })) as Hex);
  let failed: { error: unknown } | undefined;
  const result = await call().catch((error: unknown) => void (failed = { error }));
  const head = (await provider.request({ method: "eth_getBlockByNumber", params: [toHex(before + 1n), false] })) as {
    timestamp: Hex;
  } | null;
  if (head || !failed) record(head ? { at: Number(BigInt(head.timestamp)) } : {});
  if (failed) throw failed.error;
  return result as T;
}
