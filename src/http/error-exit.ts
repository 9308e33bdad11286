import type { Context, Next } from "koa";
import { apiError, apiErrorIn, ERRORS } from "../core/errors.ts";
import type { RequestLog } from "../control/request-log.ts";

/**
 * The outermost middleware, the one way out of the app: whatever a layer below threw leaves as its catalog error's
 * body (an error a library wrapped, as its cause, too); anything else is a bug, answered 500 INTERNAL with its stack
 * told to `report`, never sent. Then the request log records the answer as it goes out, errors included.
 */
export function errorExit(log: Pick<RequestLog, "record">, report: (message: string) => void) {
  return async function errorExit(ctx: Context, next: Next) {
    const started = performance.now();
    try {
      await next();
      if (ctx.status === 404 && ctx.body === undefined)
        throw apiError(ERRORS.NOT_FOUND, { what: `Route ${ctx.method} ${ctx.path}` });
    } catch (thrown) {
      const known = apiErrorIn(thrown);
      if (!known) report(`${ctx.method} ${ctx.url} failed: ${(thrown as Error).stack ?? String(thrown)}`);
      const error = known ?? apiError(ERRORS.INTERNAL);
      ctx.status = error.status;
      ctx.set(error.headers);
      ctx.body = error.body;
    } finally {
      log.record(ctx, performance.now() - started);
    }
  };
}
