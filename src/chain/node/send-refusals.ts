import type { Address } from "viem";
import { apiError, ERRORS } from "../../core/errors.ts";
import { revertData } from "../revert.ts";
import type { NodeRpcError } from "./rpc.ts";
import { walletUnfunded } from "./wallet-gas.ts";

// How nodes answer a send they refuse, and what the writer does about each.

/** How anvil ("No Signer available") and Hardhat's node ("Unknown account") refuse a sender they do not impersonate. */
export const NOT_IMPERSONATED = /no signer|unknown account|not impersonat|sender account not recognized/i;
/** How nodes refuse a nonce another writer took first (geth, anvil, Hardhat's node, providers). */
export const NONCE_CLASH =
  /nonce too low|nonce too high|already known|known transaction|replacement transaction underpriced|nonce has already been used|transaction already imported|invalid nonce/i;
/** How nodes refuse a transaction its sender cannot pay for (anvil, geth, Hardhat's node, providers). */
export const UNFUNDED = /insufficient funds|sender doesn't have enough funds|not enough funds/i;
/** A clash is tried again with a fresh nonce from the node this many times in all. */
export const NONCE_ATTEMPTS = 12;

/** A short, growing, random wait before the `tries`-th attempt of a send whose nonce another writer took. */
export function clashPause(tries: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, Math.random() * 10 * tries));
}

/**
 * A refusal of the node, for the send's `tries`-th attempt: a revert the node ran into (Hardhat's node runs the
 * transaction as it takes it) is the contract's answer; a wallet that cannot pay answers WALLET_UNFUNDED; a nonce another
 * writer took is tried again after a clashPause, a bounded number of times; anything else is refused.
 */
export async function afterRefusal(error: NodeRpcError, chainId: number, from: Address, tries: number): Promise<void> {
  if (revertData(error)) throw error;
  if (UNFUNDED.test(error.message)) throw walletUnfunded(chainId, [from], error.message);
  const clash = NONCE_CLASH.test(error.message);
  if (!clash || tries >= NONCE_ATTEMPTS) {
    const why = clash
      ? `its nonce was taken by another writer ${tries} times in a row (${error.message})`
      : error.message;
    // The node is there and answered: not an outage. Nothing was sent.
    throw transactionRefused(chainId, from, why, clash);
  }
  await clashPause(tries);
}

/** The node refused the transaction from `from` (409): a nonce other writers kept taking, or its own rules. */
export function transactionRefused(chainId: number, from: Address, why: string, clash: boolean) {
  return apiError(
    clash ? ERRORS.NONCE_CONFLICT : ERRORS.TRANSACTION_REFUSED,
    {},
    { errors: [`chain ${chainId} refused the transaction from ${from}: ${why}`] },
  );
}
