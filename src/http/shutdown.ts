import type { ServerResponse } from "node:http";
import type { Context, Next } from "koa";
import { apiError, ERRORS } from "../core/errors.ts";

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

  get stopping(): boolean {
    return this.#stopping;
  }

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
      this.#waiting.push(() => {
        clearTimeout(timer);
        resolve(true);
      });
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
        throw apiError(
          ERRORS.SHUTTING_DOWN,
          {},
          { errors: ["the simulator is stopping; this request was not started"] },
        );
      }
      this.#track(ctx.res);
      return next();
    };
  }
}
