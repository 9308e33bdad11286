import { keccak256, type Address, type Hex } from "viem";
import type { PrivateKeyAccount } from "viem/accounts";
import { MAX_FEE_PER_GAS, MAX_PRIORITY_FEE_PER_GAS } from "../contract-call.ts";
import type { NodeRpc, NodeRpcError, RawReceipt, RpcCall } from "./rpc.ts";
import { throwIfUnstamped, type NodeTx, type Sent } from "./sent.ts";
import type { WalletQueues } from "./wallet-queues.ts";

export interface SigningContext {
  rpc: NodeRpc;
  chainId: number;
  queues: WalletQueues;
  /** Told what the wallet holds, as the batch that sends reads it. */
  noteBalance(wallet: Address, balance: bigint): void;
}

/**
 * One send from `account`, in its wallet's turn: signed with the nonce counted here (or asked of the node), sent with
 * its receipt, the node's count after it and the wallet's balance asked in the same batch; the count goes on from what
 * the node says. `shared`: another writer sent from the wallet meanwhile. A timed write on a node with synchronous
 * sends (the replay, nobody else writing yet) gets its receipt in the answer.
 */
export async function sendSignedOnce(
  { rpc, chainId, queues, noteBalance }: SigningContext,
  account: PrivateKeyAccount,
  tx: NodeTx,
  stamp: RpcCall[],
  sync: boolean,
): Promise<{ sent: Sent; shared: boolean } | { error: NodeRpcError }> {
  const from = tx.from;
  const nonce = queues.nextNonce(from) ?? Number(await rpc.request("eth_getTransactionCount", [from, "pending"]));
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
  const hash = keccak256(raw);
  if (sync) {
    const outcomes = await rpc.batch([...stamp, { method: "eth_sendRawTransactionSync", params: [raw] }]);
    const sent = outcomes[stamp.length]!;
    if ("error" in sent) return (queues.forget(from), { error: sent.error });
    throwIfUnstamped(outcomes, stamp.length);
    queues.setNext(from, nonce + 1);
    return { sent: { hash, receipt: sent.result as RawReceipt, from, nonce }, shared: false };
  }
  const outcomes = await rpc.batch([
    ...stamp,
    { method: "eth_sendRawTransaction", params: [raw] },
    { method: "eth_getTransactionReceipt", params: [hash] },
    { method: "eth_getTransactionCount", params: [from, "pending"] },
    { method: "eth_getBalance", params: [from, "latest"] },
  ]);
  const [sent, receipt, count, balance] = outcomes.slice(stamp.length);
  const counted = count && "result" in count ? Number(count.result) : undefined;
  if (balance && "result" in balance) noteBalance(from, BigInt(balance.result as Hex));
  if ("error" in sent!) {
    if (counted === undefined) queues.forget(from);
    else queues.setNext(from, counted);
    return { error: sent.error };
  }
  throwIfUnstamped(outcomes, stamp.length);
  if (counted !== undefined && counted <= nonce) {
    // The node holds nonces below ours no more (the chain went back under us): it keeps this one waiting until they
    // are taken. Taken by empty transactions, this one goes in as sent.
    await fillNonces(rpc, chainId, account, counted, nonce);
    queues.setNext(from, nonce + 1);
  } else queues.setNext(from, counted ?? nonce + 1);
  const mined = receipt && "result" in receipt ? (receipt.result as RawReceipt | null) : null;
  return { sent: { hash, receipt: mined, from, nonce }, shared: counted !== undefined && counted > nonce + 1 };
}

/** Sends an empty transaction from `account` at every nonce from `first` up to (not including) `end`. */
async function fillNonces(
  rpc: NodeRpc,
  chainId: number,
  account: PrivateKeyAccount,
  first: number,
  end: number,
): Promise<void> {
  const raws = await Promise.all(
    Array.from({ length: end - first }, (_, i) =>
      account.signTransaction({
        type: "eip1559",
        chainId,
        nonce: first + i,
        to: account.address,
        gas: 21_000n,
        maxFeePerGas: MAX_FEE_PER_GAS,
        maxPriorityFeePerGas: MAX_PRIORITY_FEE_PER_GAS,
      }),
    ),
  );
  await rpc.batch(raws.map((raw) => ({ method: "eth_sendRawTransaction", params: [raw] })));
}
