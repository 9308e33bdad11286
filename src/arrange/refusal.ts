import { ChainRevert } from "../chain/revert.ts";
import { ApiError, apiError, apiErrorIn, ERRORS } from "../core/errors.ts";
import { ReplayError } from "../scenario/chain-replay.ts";

/**
 * Why a fragment was not applied, as an answer naming the entry: a contract's refusal is 422 with
 * its rule, a node that refused or cannot do the action 409, a chain not there 503. Anything else
 * is a fault of the simulator's and is thrown as it is.
 */
export function refusalOf(error: unknown): unknown {
  if (error instanceof ApiError) return error;
  if (!(error instanceof ReplayError)) return apiErrorIn(error) ?? error;
  const { step, reason } = error;
  const what = step.kind === "collection" ? `creating collection '${step.collection.id}'` : step.action.action;
  if (reason instanceof ChainRevert)
    return apiError(
      ERRORS.FRAGMENT_REVERTED,
      { entry: step.path },
      { errors: [`${step.path} (${what}): ${reason.message}`] },
    );
  const failure = apiErrorIn(reason);
  if (!failure) return error;
  // The node's own refusal (409, 503), its message as it is, its lines naming the entry.
  return failure.withErrors(failure.errors.map((line) => `${step.path} (${what}): ${line}`));
}
