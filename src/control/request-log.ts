import type { Context, Next } from "koa";
import type { LoggedRequest } from "../schemas/control.ts";

/** The last requests the simulator answered, newest first, at most `capacity` of them. */
export class RequestLog {
  readonly #capacity: number;
  #entries: LoggedRequest[] = [];
  #next = 0;

  constructor(capacity = 1000) {
    this.#capacity = capacity;
  }

  last(limit: number): LoggedRequest[] {
    const ordered = [...this.#entries.slice(this.#next), ...this.#entries.slice(0, this.#next)].reverse();
    return ordered.slice(0, limit);
  }

  /** Records every request but the reads of this log itself, after the answer is final. */
  middleware() {
    return async (ctx: Context, next: Next) => {
      const started = performance.now();
      try {
        await next();
      } finally {
        if (ctx.path !== "/_sim/requests") this.#add(ctx, performance.now() - started);
      }
    };
  }

  #add(ctx: Context, durationMs: number): void {
    const apiKey = typeof ctx.query.apiKey === "string" ? `${ctx.query.apiKey.slice(0, 4)}…` : undefined;
    const entry: LoggedRequest = {
      at: new Date().toISOString(),
      method: ctx.method,
      path: ctx.path,
      status: ctx.respond === false ? 0 : ctx.status,
      durationMs: Math.round(durationMs * 10) / 10,
      ...(apiKey ? { apiKey } : {}),
    };
    if (this.#entries.length < this.#capacity) this.#entries.push(entry);
    else this.#entries[this.#next] = entry;
    this.#next = (this.#next + 1) % this.#capacity;
  }
}
