import type { Context, Next } from "koa";
import type { AccessPolicy } from "../access/policy.ts";

/** Asks the access policy about every request to the API's port before anything is read (src/access/policy.ts). */
export function guardAccess(policy: AccessPolicy) {
  return function guardAccess(ctx: Context, next: Next) {
    const refused = policy.refusal({
      surface: "api",
      method: ctx.method,
      path: ctx.path,
      host: ctx.get("host"),
      origin: ctx.get("origin") || undefined,
      authorization: ctx.get("authorization") || undefined,
      contentType: ctx.get("content-type") || undefined,
      hasBody: carriesBody(ctx),
    });
    if (refused) throw refused;
    return next();
  };
}

/** A request with a body: chunked, or a content-length above 0 (a bodiless POST needs no content-type). */
function carriesBody(ctx: Context): boolean {
  const length = ctx.get("content-length");
  return ctx.get("transfer-encoding") !== "" || (length !== "" && Number(length) > 0);
}
