import type { Context, Next } from "koa";
import { isControlPath } from "../access/policy.ts";
import { apiError, ERRORS } from "../core/errors.ts";

/**
 * Until the world is replayed and indexed, every request answers 503: a client
 * started beside the simulator then sees "not yet", never a half-built world,
 * and no mint lands in the middle of the replay.
 */
export function readiness(isReady: () => boolean) {
  return function readiness(ctx: Context, next: Next) {
    if (isReady()) return next();
    ctx.set("retry-after", "1");
    throw apiError(ERRORS.LOADING, {}, { errors: ["the world is being replayed onto the chain; retry in a second"] });
  };
}

/**
 * A world answered from the cache serves reads while its chains still replay it; anything
 * else (a write, the control API) waits until the chains hold the world. If they could not
 * load it, 503.
 */
export function heldUntilLive(live: () => Promise<unknown>) {
  return function heldUntilLive(ctx: Context, next: Next) {
    const read = (ctx.method === "GET" || ctx.method === "HEAD") && !isControlPath(ctx.path);
    if (read) return next();
    return live().then(next, (error: unknown) => {
      throw apiError(ERRORS.LOAD_FAILED, {}, { errors: [String((error as Error)?.message ?? error).split("\n")[0]!] });
    });
  };
}
