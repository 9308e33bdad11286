import type { Context, Middleware } from "koa";
import type { Static } from "@sinclair/typebox";
import type { Operation } from "../schemas/operations.ts";
import { checkRequest, checksOf, type Checked } from "../pipeline/pipeline.ts";

export interface Handler<Op extends Operation, Admitted> {
  /** Runs once the path and query passed and before the body is read: who calls, with what media type. */
  admit?(ctx: Context, request: Omit<Checked<Op>, "body">): Admitted;
  /** The body as its schema should see it, when the raw parsed body is not that. */
  bodyOf?(ctx: Context): unknown;
  answer(request: Checked<Op>, admitted: Admitted): Promise<Static<Op["response"]>>;
}

/**
 * A control operation on Koa, checked as the pipeline checks the API's (src/pipeline/pipeline.ts): its credentials are
 * required, then its path parameters, query and body are checked against its schemas, and what the handler answers is
 * checked against its response schema before it is sent (bytes of another media type are sent as they are).
 */
export function handle<Op extends Operation, Admitted = undefined>(
  operation: Op,
  handler: Handler<Op, Admitted>,
): Middleware {
  return async (ctx) => {
    const checks = checksOf(operation);
    const { params, query } = checkRequest(operation, { params: ctx.params, query: ctx.query });
    const admitted = handler.admit?.(ctx, { params, query }) as Admitted;
    const body = checks.body?.(handler.bodyOf ? handler.bodyOf(ctx) : ctx.request.body) as Checked<Op>["body"];
    const answer = await handler.answer({ params, query, body }, admitted);
    if (operation.media) ctx.type = operation.media;
    ctx.body = operation.media ? answer : checks.response(answer);
  };
}
