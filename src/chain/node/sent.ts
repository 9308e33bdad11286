import type { Address, Hex } from "viem";
import type { SendableTx } from "../block-batcher.ts";
import { NodeRpcError, type NodeRpc, type RawReceipt, type RpcOutcome } from "./rpc.ts";

// A transaction not mined after this is looked at more closely: whether another writer's took its nonce.
const SUSPECT_AFTER_MS = 50;
// A transaction the node no longer knows, whose nonce another took, is given up once it stays so this long.
const TAKEN_AFTER_MS = 100;

/** A transaction as the simulator sends it (`to` absent: a contract creation). */
export type NodeTx = Omit<SendableTx, "to"> & { from: Address; to?: Address; data: Hex };

/** One send's answer: its hash, its receipt if the node had mined it, the wallet that sent it and its nonce. */
export type Sent = { hash: Hex; receipt: RawReceipt | null; from: Address; nonce: number };

/**
 * Asks until the node has mined it (at once again: an automining node mines within a millisecond or two; then less
 * and less often), for `withinMs`; then undefined, or (`timed`) an error. "taken": a transaction whose nonce the
 * chain used for another (it can never be mined).
 */
export async function minedReceipt(
  rpc: NodeRpc,
  sent: Sent,
  withinMs: number,
  timed: boolean,
): Promise<RawReceipt | "taken" | undefined> {
  const look = watching(rpc, sent);
  const deadline = Date.now() + withinMs;
  for (let wait = 0; ; wait = Math.min(Math.max(1, wait * 2), 200)) {
    const now = await look();
    if (now) return now;
    if (Date.now() > deadline) {
      if (!timed) return undefined;
      throw new Error(`transaction ${sent.hash} was not mined within ${withinMs / 1000} s`);
    }
    await new Promise((resolve) => setTimeout(resolve, wait));
  }
}

/**
 * Looks at a sent transaction, each call once: its receipt once mined; "taken" once its nonce has been used on chain
 * by another transaction while the node no longer knows it, for TAKEN_AFTER_MS (a node may be between taking a
 * transaction out of its pool and storing its block); undefined while it waits. For its first SUSPECT_AFTER_MS only the
 * receipt is asked (the usual wait).
 */
export function watching(rpc: NodeRpc, { hash, from, nonce }: Sent): () => Promise<RawReceipt | "taken" | undefined> {
  const sentAt = Date.now();
  let unseenSince: number | undefined;
  return async () => {
    const suspect = Date.now() - sentAt >= SUSPECT_AFTER_MS;
    const [receipt, count, known] = await rpc.batch([
      { method: "eth_getTransactionReceipt", params: [hash] },
      ...(suspect
        ? [
            { method: "eth_getTransactionCount", params: [from, "latest"] },
            { method: "eth_getTransactionByHash", params: [hash] },
          ]
        : []),
    ]);
    if ("error" in receipt!) throw receipt.error;
    if (receipt!.result) return receipt!.result as RawReceipt;
    const unseen =
      count && "result" in count && Number(count.result) > nonce && known && "result" in known && known.result === null;
    if (!unseen) return (unseenSince = undefined);
    unseenSince ??= Date.now();
    return Date.now() - unseenSince >= TAKEN_AFTER_MS ? "taken" : undefined;
  };
}

/**
 * The block time was refused (a node past that time): the transaction went in at another time, so the world is wrong.
 */
export function throwIfUnstamped(outcomes: RpcOutcome[], stamped: number): void {
  const stamp = stamped > 0 ? outcomes[0] : undefined;
  if (stamp && "error" in stamp)
    throw new NodeRpcError("evm_setNextBlockTimestamp", {
      code: stamp.error.code,
      message: `the node refused the block time (${stamp.error.message})`,
    });
}
