import { NodeCannot } from "../chain/node/refusal.ts";
import { NodeUnreachable, rootCause } from "../chain/node/rpc.ts";
import { ChainRevert, ChainUnavailable, TransactionRefused } from "../chain/revert.ts";
import type { ApiAccount } from "../config.ts";
import { ApiError } from "../errors.ts";
import { ChainReplaced } from "../indexer/indexer.ts";

/** A chain action's failure as the API answers it: 403 for a missing role, 422 for a contract rule, else as `chainFailure`. */
export function apiErrorOf(error: unknown, account: ApiAccount, refusal: string): ApiError {
  if (!(error instanceof ChainRevert)) {
    return (
      chainFailure(error) ??
      new ApiError(503, "CHAIN_UNAVAILABLE", "The chain did not accept the transaction", [
        String((error as Error)?.message ?? error),
      ])
    );
  }
  if (error.errorName === "AccessControlUnauthorizedAccount") {
    return new ApiError(403, "FORBIDDEN", "The developer wallet is not authorized on this collection", [
      `developer wallet ${account.wallet} of API key '${account.name}' does not hold the collection's minter role`,
    ]);
  }
  return new ApiError(422, "CONTRACT_RULE", refusal, [error.message]);
}

/**
 * A chain's failure that is not a contract's answer: a node that refused the transaction (409: it is
 * there, the transaction is not), one that cannot do the action (409), or a chain not there (503).
 */
export function chainFailure(thrown: unknown): ApiError | undefined {
  const error =
    thrown instanceof ChainUnavailable || thrown instanceof NodeCannot || thrown instanceof TransactionRefused
      ? thrown
      : rootCause(thrown);
  if (error instanceof TransactionRefused) {
    return error.nonceClash
      ? new ApiError(409, "NONCE_CONFLICT", "Another writer kept taking the wallet's nonce; send again", [
          error.message,
        ])
      : new ApiError(409, "TRANSACTION_REFUSED", "The node refused the transaction", [error.message]);
  }
  if (error instanceof NodeCannot) return new ApiError(409, "CONFLICT", error.message, [error.detail]);
  if (error instanceof NodeUnreachable || error instanceof ChainReplaced || error instanceof ChainUnavailable) {
    return new ApiError(503, "CHAIN_UNAVAILABLE", "A chain did not answer as it should", [
      error.message.split("\n")[0]!,
    ]);
  }
  return undefined;
}
