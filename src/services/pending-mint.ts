import type { Hex } from "viem";
import type { SimChain } from "../chain/sim-chain.ts";

/** Where a sent transaction is: mined, still in the pool, or gone (the chain dropped it, e.g. rewound by evm_revert). */
export type TxWhereabouts = "mined" | "pending" | "gone";

export async function whereabouts(chain: Pick<SimChain, "request">, hash: Hex): Promise<TxWhereabouts> {
  const tx = (await chain.request("eth_getTransactionByHash", [hash])) as { blockNumber: Hex | null } | null;
  return tx === null ? "gone" : tx.blockNumber ? "mined" : "pending";
}

const LOOK_EVERY_MS = 500;

/**
 * Follows a mint that was answered 504 MINT_PENDING until it is mined or gone; if it goes,
 * `onGone` runs (its metadata is forgotten). Stops when the chain stops answering (closed).
 */
export function followPending(chain: Pick<SimChain, "request">, hash: Hex, onGone: () => void): void {
  const look = () =>
    whereabouts(chain, hash).then(
      (where) => {
        if (where === "gone") onGone();
        else if (where === "pending") setTimeout(look, LOOK_EVERY_MS).unref();
      },
      () => undefined,
    );
  setTimeout(look, LOOK_EVERY_MS).unref();
}
