import { WaitForTransactionReceiptTimeoutError, type Hex, type TransactionReceipt } from "viem";
import type { SimChain } from "../chain/sim-chain.ts";

/** Where a sent transaction is: mined, still in the pool, or gone (the chain dropped it, e.g. rewound by evm_revert). */
export type TxWhereabouts = "mined" | "pending" | "gone";

export async function whereabouts(chain: Pick<SimChain, "request">, hash: Hex): Promise<TxWhereabouts> {
  const tx = (await chain.request("eth_getTransactionByHash", [hash])) as { blockNumber: Hex | null } | null;
  return tx === null ? "gone" : tx.blockNumber ? "mined" : "pending";
}

/**
 * The transaction's receipt once its block is indexed, if it is mined within `timeoutMs`;
 * otherwise where it is then (still pending, or gone). Every write an API answer waits for
 * waits through this, so no answer waits longer than the timeout.
 */
export async function minedWithin(
  chain: SimChain,
  hash: Hex,
  timeoutMs: number,
): Promise<{ receipt: TransactionReceipt } | { where: "pending" | "gone" }> {
  try {
    return { receipt: await chain.confirmed(hash, { timeoutMs }) };
  } catch (error) {
    if (!(error instanceof WaitForTransactionReceiptTimeoutError)) throw error;
  }
  const where = await whereabouts(chain, hash);
  return where === "mined" ? { receipt: await chain.confirmed(hash) } : { where };
}
