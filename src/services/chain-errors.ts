import type { ApiAccount } from "../config.ts";
import { ApiError } from "../errors.ts";
import { ChainRevert } from "../chain/revert.ts";

/** A chain action's failure as the API answers it: 403 for a missing role, 422 for a contract rule, 503 otherwise. */
export function apiErrorOf(error: unknown, account: ApiAccount, refusal: string): ApiError {
  if (!(error instanceof ChainRevert)) {
    return new ApiError(503, "CHAIN_UNAVAILABLE", "The chain did not accept the transaction", [
      String((error as Error)?.message ?? error),
    ]);
  }
  if (error.errorName === "AccessControlUnauthorizedAccount") {
    return new ApiError(403, "FORBIDDEN", "The developer wallet is not authorized on this collection", [
      `developer wallet ${account.wallet} of API key '${account.name}' does not hold the collection's minter role`,
    ]);
  }
  return new ApiError(422, "CONTRACT_RULE", refusal, [error.message]);
}
