import { NodeCannot } from "../chain/node/refusal.ts";
import { NodeUnreachable, rootCause } from "../chain/node/rpc.ts";
import { WalletUnfunded } from "../chain/node/wallet-gas.ts";
import { ChainDown, ChainReplaced } from "../chain/registry.ts";
import { StorageFull } from "../chain/recorder.ts";
import { ChainRevert, ChainUnavailable, TransactionRefused } from "../chain/revert.ts";
import type { ApiAccount } from "../core/config.ts";
import { apiError, ERRORS, type ApiError } from "../core/errors.ts";

/**
 * A chain action's failure as the API answers it: 403 for a missing role, 422 for a contract rule, else as
 * `chainFailure`.
 */
export function apiErrorOf(error: unknown, account: ApiAccount, what = "the mint"): ApiError {
  if (!(error instanceof ChainRevert)) {
    return (
      chainFailure(error) ??
      apiError(ERRORS.CHAIN_UNAVAILABLE, {}, { errors: [String((error as Error)?.message ?? error).split("\n")[0]!] })
    );
  }
  if (error.errorName === "AccessControlUnauthorizedAccount") {
    return apiError(
      ERRORS.WALLET_NOT_MINTER,
      {},
      {
        errors: [
          `developer wallet ${account.wallet} of API key '${account.name}' does not hold the collection's minter role`,
        ],
      },
    );
  }
  return apiError(ERRORS.CONTRACT_RULE, { what }, { errors: [error.message] });
}

/**
 * A chain's failure that is not a contract's answer, as the API answers it: a node that refused the
 * transaction (409: it is there, the transaction is not), one that cannot do the action (409), a
 * chain not there or a wallet that cannot pay for gas there (503), or a journal that refused the change (507).
 * Undefined for anything else.
 */
export function chainFailure(thrown: unknown): ApiError | undefined {
  if (thrown instanceof StorageFull) {
    return apiError(ERRORS.STORAGE_FULL, { dir: thrown.dir, code: thrown.reason }, { errors: [thrown.detail] });
  }
  const known = [ChainUnavailable, NodeCannot, TransactionRefused, ChainDown, ChainReplaced];
  const error = known.some((kind) => thrown instanceof kind) ? thrown : rootCause(thrown);
  if (error instanceof WalletUnfunded) {
    return apiError(
      ERRORS.WALLET_UNFUNDED,
      { wallets: error.wallets.join(", "), chainId: error.chainId },
      { errors: [error.message] },
    );
  }
  if (error instanceof TransactionRefused) {
    return apiError(
      error.nonceClash ? ERRORS.NONCE_CONFLICT : ERRORS.TRANSACTION_REFUSED,
      {},
      {
        errors: [error.message],
      },
    );
  }
  if (error instanceof NodeCannot) {
    return apiError(ERRORS.NODE_CANNOT, { chainId: error.chainId, action: error.action }, { errors: [error.detail] });
  }
  if (error instanceof ChainDown) {
    return apiError(ERRORS.CHAIN_DOWN, { chainId: error.chainId }, { errors: [error.message] });
  }
  if (error instanceof ChainReplaced) {
    return apiError(ERRORS.CHAIN_REPLACED, { chainId: error.chainId }, { errors: [error.detail] });
  }
  if (error instanceof NodeUnreachable || error instanceof ChainUnavailable) {
    return apiError(ERRORS.CHAIN_UNAVAILABLE, {}, { errors: [error.message.split("\n")[0]!] });
  }
  return undefined;
}
