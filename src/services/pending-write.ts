import { WaitForTransactionReceiptTimeoutError, type Hex, type TransactionReceipt } from "viem";
import type { SimChain } from "../chain/sim-chain.ts";
import { apiError, ERRORS } from "../core/errors.ts";

/** How each kind of write says it is late or lost. */
const OUTCOMES = {
  mint: { pending: ERRORS.MINT_PENDING, gone: ERRORS.MINT_DROPPED, lands: "its item appears, complete, once it is" },
  write: { pending: ERRORS.WRITE_PENDING, gone: ERRORS.WRITE_DROPPED, lands: "it takes effect once it is" },
} as const;

/**
 * Every write an API answer waits for waits through this: the transaction's receipt once its block is
 * indexed, if it is mined within `timeoutMs`. Otherwise the chain is asked where it is: still in the pool
 * answers 504 (MINT_PENDING, WRITE_PENDING) with its hash, gone answers 409 (MINT_DROPPED, WRITE_DROPPED),
 * never a promise that it will land. No answer waits longer than the timeout.
 */
export async function minedWithin(
  chain: Pick<SimChain, "confirmed" | "request" | "sentAs">,
  hash: Hex,
  timeoutMs: number,
  kind: keyof typeof OUTCOMES,
): Promise<TransactionReceipt> {
  try {
    return await chain.confirmed(hash, { timeoutMs });
  } catch (error) {
    if (!(error instanceof WaitForTransactionReceiptTimeoutError)) throw error;
  }
  // On a node, the write may have been sent again (another writer took its nonce): where the last one sent is.
  hash = chain.sentAs(hash);
  // Mined, still in the pool, or gone (the chain dropped it, e.g. rewound by evm_revert).
  const tx = (await chain.request("eth_getTransactionByHash", [hash])) as { blockNumber: Hex | null } | null;
  if (tx?.blockNumber) return chain.confirmed(hash);
  const where = tx === null ? "gone" : "pending";
  const outcome = OUTCOMES[kind];
  const why =
    where === "gone"
      ? `transaction ${hash} left the chain without being mined (the chain was rewound, e.g. evm_revert, or its ` +
        `pool cleared); nothing changed: send it again`
      : `transaction ${hash} was not mined within ${timeoutMs} ms; ${outcome.lands}`;
  throw apiError(outcome[where], {}, { txHash: hash, errors: [why] });
}
