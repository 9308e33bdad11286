import type { Middleware } from "koa";
import type { Static } from "@sinclair/typebox";
import type { Operation } from "../schemas/operations.ts";
import { checkRequest, checksOf, type Checked } from "../pipeline/pipeline.ts";

/**
 * A control operation on Koa, checked as the pipeline checks the API's (src/pipeline/pipeline.ts): its credentials are
 * required, then its path parameters, query and body are checked against its schemas, and what the handler answers is
 * checked against its response schema before it is sent (bytes of another media type are sent as they are).
 */
export function handle<Op extends Operation>(
  operation: Op,
  handler: { answer(request: Checked<Op>): Promise<Static<Op["response"]>> },
): Middleware {
  return async (ctx) => {
    const checks = checksOf(operation);
    const request = checkRequest(operation, { params: ctx.params, query: ctx.query });
    const answer = await handler.answer({ ...request, body: checks.body?.(ctx.request.body) as Checked<Op>["body"] });
    if (operation.media) ctx.type = operation.media;
    ctx.body = checks.response(answer);
  };
}
