import type { Context, Next } from "koa";
import { apiError, apiErrorIn, ERRORS, type ApiError } from "../core/errors.ts";

/** Errors thrown by Koa's body parser and http-errors, mapped onto the design's codes. */
function fromHttpError(error: { status?: number; type?: string; message?: string }): ApiError | undefined {
  switch (error.status) {
    case 400:
      return apiError(ERRORS.INVALID_JSON, {}, { errors: [error.message ?? "invalid JSON"] });
    case 413:
      return apiError(ERRORS.BODY_TOO_LARGE, {});
    case 405:
    case 501:
      return apiError(ERRORS.METHOD_NOT_ALLOWED);
    case 415:
      return apiError(ERRORS.UNSUPPORTED_MEDIA_TYPE, { expected: "application/json (or a form)" });
    default:
      return undefined;
  }
}

/** Outermost middleware: every failure leaves as the JSON error body, never a stack trace. */
export function errorBodies(log: (message: string) => void) {
  return async function errorBodies(ctx: Context, next: Next) {
    try {
      await next();
      if (ctx.status === 404 && ctx.body === undefined)
        throw apiError(ERRORS.NOT_FOUND, { what: `Route ${ctx.method} ${ctx.path}` });
    } catch (thrown) {
      const known = apiErrorIn(thrown) ?? fromHttpError(thrown as object);
      const error = known ?? apiError(ERRORS.INTERNAL, {});
      if (!known) log(`${ctx.method} ${ctx.url} failed: ${(thrown as Error).stack ?? String(thrown)}`);
      ctx.status = error.status;
      ctx.body = error.body;
    }
  };
}
