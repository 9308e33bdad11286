import type { Context, Next } from "koa";
import { ApiError } from "../errors.ts";

/**
 * Lets the API stop cleanly: once `stop()` is called, requests that still arrive on
 * kept-alive connections get 503 SHUTTING_DOWN with `Connection: close` (so nothing
 * new starts, no mint among them), while `settled()` waits for those in flight.
 */
export class Drain {
  #stopping = false;
  #inFlight = 0;
  #waiting: (() => void)[] = [];

  get stopping(): boolean {
    return this.#stopping;
  }

  stop(): void {
    this.#stopping = true;
  }

  /** Resolves once no request is in flight, or after `timeoutMs`; answers whether they all finished. */
  settled(timeoutMs: number): Promise<boolean> {
    if (this.#inFlight === 0) return Promise.resolve(true);
    return new Promise((resolve) => {
      const timer = setTimeout(() => resolve(false), timeoutMs);
      this.#waiting.push(() => {
        clearTimeout(timer);
        resolve(true);
      });
    });
  }

  middleware() {
    return async (ctx: Context, next: Next) => {
      if (this.#stopping) {
        ctx.set("connection", "close");
        throw new ApiError(503, "SHUTTING_DOWN", "The simulator is shutting down", ["the simulator is stopping; this request was not started"]);
      }
      this.#inFlight += 1;
      try {
        await next();
      } finally {
        this.#inFlight -= 1;
        if (this.#inFlight === 0) this.#waiting.splice(0).forEach((wake) => wake());
      }
    };
  }
}
