// The gates a request to the API passes before the app reads it: the shutdown drain, the access policy, readiness.
import type { Context, Next } from "koa";
import { type AccessPolicy, accessRequestOf, isControlPath } from "../access/policy.ts";
import type { ServerResponse } from "node:http";
import { apiError, ERRORS } from "../core/errors.ts";

/** Asks the access policy about every request to the API's port before anything is read (src/access/policy.ts). */
export function guardAccess(policy: AccessPolicy) {
  return function guardAccess(ctx: Context, next: Next) {
    const refused = policy.refusal(accessRequestOf("api", ctx.req, ctx.path));
    if (refused) throw refused;
    return next();
  };
}

/**
 * Lets the API stop cleanly: once `stop()` is called, requests that still arrive on
 * kept-alive connections get 503 SHUTTING_DOWN with `Connection: close` (so nothing
 * new starts, no mint among them), while `settled()` waits for those in flight.
 * A request is in flight until its response is written out (or its connection is gone),
 * not merely until the middleware returns: Koa writes the body after that.
 */
export class Drain {
  #stopping = false;
  #inFlight = new Set<ServerResponse>();
  #waiting: (() => void)[] = [];

  /** Refuses what arrives from now on; the answers still on their way close their connection after them. */
  stop(): void {
    this.#stopping = true;
    for (const res of this.#inFlight) if (!res.headersSent) res.setHeader("connection", "close");
  }

  /** Resolves once no request is in flight, or after `timeoutMs`; answers whether they all finished. */
  settled(timeoutMs: number): Promise<boolean> {
    if (this.#inFlight.size === 0) return Promise.resolve(true);
    return new Promise((resolve) => {
      const timer = setTimeout(() => resolve(false), timeoutMs);
      this.#waiting.push(() => (clearTimeout(timer), resolve(true)));
    });
  }

  #track(res: ServerResponse): void {
    this.#inFlight.add(res);
    res.once("close", () => {
      this.#inFlight.delete(res);
      if (this.#inFlight.size === 0) this.#waiting.splice(0).forEach((wake) => wake());
    });
  }

  middleware() {
    return (ctx: Context, next: Next) => {
      if (this.#stopping) {
        ctx.set("connection", "close");
        const line = "the simulator is stopping; this request was not started";
        throw apiError(ERRORS.SHUTTING_DOWN, {}, { errors: [line] });
      }
      this.#track(ctx.res);
      return next();
    };
  }
}

/**
 * Until the world is replayed and indexed, every request answers 503: a client
 * started beside the simulator then sees "not yet", never a half-built world,
 * and no mint lands in the middle of the replay. A world answered from the cache
 * serves reads while its chains still replay it; anything else (a write, the control
 * API) waits until the chains hold the world (`live`). If they could not load it, 503.
 */
export function readiness(isReady: () => boolean, live: () => Promise<unknown>) {
  return function readiness(ctx: Context, next: Next) {
    if (!isReady()) {
      ctx.set("retry-after", "1");
      throw apiError(ERRORS.LOADING, {}, { errors: ["the world is being replayed onto the chain; retry in a second"] });
    }
    if ((ctx.method === "GET" || ctx.method === "HEAD") && !isControlPath(ctx.path)) return next();
    return live().then(next, (error: unknown) => {
      throw apiError(ERRORS.LOAD_FAILED, {}, { errors: [String((error as Error)?.message ?? error).split("\n")[0]!] });
    });
  };
}
