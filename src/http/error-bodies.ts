import type { Context, Next } from "koa";
import { ApiError, notFound } from "../errors.ts";
import { chainFailure } from "../services/chain-errors.ts";

/** Errors thrown by Koa's body parser and http-errors, mapped onto the design's codes. */
function fromHttpError(error: { status?: number; type?: string; message?: string }): ApiError | undefined {
  switch (error.status) {
    case 400:
      return new ApiError(400, "INVALID_JSON", "The request body is not valid JSON", [error.message ?? "invalid JSON"]);
    case 413:
      return new ApiError(413, "PAYLOAD_TOO_LARGE", "The request body is too large");
    case 405:
    case 501:
      return new ApiError(405, "METHOD_NOT_ALLOWED", error.message ?? "Method not allowed");
    case 415:
      return new ApiError(415, "UNSUPPORTED_MEDIA_TYPE", "Send the body as application/json (or a form)");
    default:
      return undefined;
  }
}

/** Outermost middleware: every failure leaves as the JSON error body, never a stack trace. */
export function errorBodies(log: (message: string) => void) {
  return async function errorBodies(ctx: Context, next: Next) {
    try {
      await next();
      if (ctx.status === 404 && ctx.body === undefined) throw notFound(`Route ${ctx.method} ${ctx.path}`);
    } catch (thrown) {
      const known = thrown instanceof ApiError ? thrown : (chainFailure(thrown) ?? fromHttpError(thrown as object));
      const error = known ?? new ApiError(500, "INTERNAL", "The simulator failed; this is a bug in it");
      if (!known) log(`${ctx.method} ${ctx.url} failed: ${(thrown as Error).stack ?? String(thrown)}`);
      ctx.status = error.status;
      ctx.body = error.body;
    }
  };
}
