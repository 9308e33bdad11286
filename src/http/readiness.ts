import type { Context, Next } from "koa";
import { ApiError } from "../errors.ts";

/**
 * Until the world is replayed and indexed, every request answers 503: a client
 * started beside the simulator then sees "not yet", never a half-built world,
 * and no mint lands in the middle of the replay.
 */
export function readiness(isReady: () => boolean) {
  return async function readiness(ctx: Context, next: Next) {
    if (isReady()) return next();
    ctx.set("retry-after", "1");
    throw new ApiError(503, "CHAIN_UNAVAILABLE", "The simulator is still loading its world", [
      "the world is being replayed onto the chain; retry in a second",
    ]);
  };
}
