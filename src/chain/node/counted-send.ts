import { keccak256, toHex, type Address, type Hex } from "viem";
import type { PrivateKeyAccount } from "viem/accounts";
import { FEES } from "../contract-call.ts";
import type { NodeRpc, NodeRpcError, RawReceipt, RpcCall } from "./rpc.ts";
import { NONCE_CLASH } from "./send-refusals.ts";
import { throwIfUnstamped, type NodeTx, type Sent } from "./sent.ts";
import type { WalletQueues } from "./wallet-queues.ts";

export interface SendContext {
  rpc: NodeRpc;
  chainId: number;
  queues: WalletQueues;
  /** Told what the wallet holds, as the batch that sends reads it. */
  noteBalance(wallet: Address, balance: bigint): void;
}

/**
 * How a wallet's transaction goes out at a nonce counted here: the call that sends it (`sync`: one that answers its
 * receipt), and its hash where known before it is sent.
 */
export type WalletSender = (tx: NodeTx, nonce: number, sync: boolean) => Promise<{ call: RpcCall; hash?: Hex }>;

/** Signed here with the wallet's key and sent raw: its hash is known before it is sent. */
export function signedBy(account: PrivateKeyAccount, chainId: number): WalletSender {
  return async (tx, nonce, sync) => {
    const raw = await account.signTransaction({
      type: "eip1559",
      chainId,
      nonce,
      ...(tx.to ? { to: tx.to } : {}),
      data: tx.data,
      ...(tx.value ? { value: BigInt(tx.value) } : {}),
      gas: BigInt(tx.gas),
      maxFeePerGas: BigInt(tx.maxFeePerGas!),
      maxPriorityFeePerGas: BigInt(tx.maxPriorityFeePerGas!),
    });
    return {
      call: { method: sync ? "eth_sendRawTransactionSync" : "eth_sendRawTransaction", params: [raw] },
      hash: keccak256(raw),
    };
  };
}

/**
 * Sent as the wallet by a dev node that impersonates it, at the nonce given: a node that picked the nonce itself would
 * leave nothing to tell that its transaction was lost to another writer's at that nonce.
 */
export const impersonated: WalletSender = async (tx, nonce, sync) => ({
  call: { method: sync ? "eth_sendTransactionSync" : "eth_sendTransaction", params: [{ ...tx, nonce: toHex(nonce) }] },
});

/**
 * One send from `tx.from`, in its wallet's turn: at the nonce counted here (or asked of the node), sent with its
 * receipt (when its hash is known before), the node's count after it and the wallet's balance asked in the same batch;
 * the count goes on from what the node says. `shared`: another writer sent from the wallet meanwhile. A timed write on
 * a node with synchronous sends (the replay, nobody else writing yet) gets its receipt in the answer.
 */
export async function sendCountedOnce(
  { rpc, queues, noteBalance }: SendContext,
  send: WalletSender,
  tx: NodeTx,
  stamp: RpcCall[],
  sync: boolean,
): Promise<{ sent: Sent; shared: boolean } | { error: NodeRpcError }> {
  const from = tx.from;
  const nonce = queues.next.get(from) ?? Number(await rpc.request("eth_getTransactionCount", [from, "pending"]));
  const { call, hash: known } = await send(tx, nonce, sync);
  if (sync) {
    const outcomes = await rpc.batch([...stamp, call]);
    const sent = outcomes[stamp.length]!;
    if ("error" in sent) return (queues.forget(from), { error: sent.error });
    throwIfUnstamped(outcomes, stamp.length);
    queues.next.set(from, nonce + 1);
    const receipt = sent.result as RawReceipt;
    return { sent: { hash: receipt.transactionHash, receipt, from, nonce }, shared: false };
  }
  const outcomes = await rpc.batch([
    ...stamp,
    call,
    ...(known ? [{ method: "eth_getTransactionReceipt", params: [known] }] : []),
    { method: "eth_getTransactionCount", params: [from, "pending"] },
    { method: "eth_getBalance", params: [from, "latest"] },
  ]);
  const [sent, ...asked] = outcomes.slice(stamp.length);
  const [receipt, count, balance] = known ? asked : [undefined, ...asked];
  const counted = count && "result" in count ? Number(count.result) : undefined;
  if (balance && "result" in balance) noteBalance(from, BigInt(balance.result as Hex));
  if ("error" in sent!) {
    // A nonce another writer took: the count read beside it is stale once the pause before the next try has let that
    // writer send again, so the next try asks the node afresh.
    if (counted === undefined || NONCE_CLASH.test(sent.error.message)) queues.forget(from);
    else queues.next.set(from, counted);
    return { error: sent.error };
  }
  throwIfUnstamped(outcomes, stamp.length);
  if (counted !== undefined && counted <= nonce) {
    // The node holds nonces below ours no more (the chain went back under us, or its pool lost one): it keeps this one
    // waiting until they are taken. Taken by empty transactions, this one goes in as sent.
    const empty: NodeTx = { from, to: from, data: "0x", gas: toHex(21_000), ...FEES };
    const fills = await Promise.all(Array.from({ length: nonce - counted }, (_, i) => send(empty, counted + i, false)));
    await rpc.batch(fills.map((fill) => fill.call));
    queues.next.set(from, nonce + 1);
  } else queues.next.set(from, counted ?? nonce + 1);
  const mined = receipt && "result" in receipt ? (receipt.result as RawReceipt | null) : null;
  const hash = known ?? (sent!.result as Hex);
  return { sent: { hash, receipt: mined, from, nonce }, shared: counted !== undefined && counted > nonce + 1 };
}
