import type { Context, Next } from "koa";
import { ApiError, notFound } from "../errors.ts";
import { bearerMatches } from "../http/admin-token.ts";
import { hostnameOf, isIpLiteral, isLoopbackHost, originAllowed } from "../http/origins.ts";

/** Who may use the control API: on only on loopback or with a token, and then only with it. */
export interface ControlAccess {
  enabled: boolean;
  /** Why it is off, for the 404 that says so. */
  offReason?: string;
  token?: string;
  allowedOrigins: string[];
}

export const isControlPath = (path: string) => path === "/_sim" || path.startsWith("/_sim/");

/**
 * Checks every /_sim request, reads too (they show the request log, the world's keys), before
 * anything is read. Without the token, a web page could reach it through DNS rebinding, so the
 * `Host` must be one rebinding cannot produce; with the token, a page cannot know it, so any
 * `Host` will do (the simulator reached by a name on the network). A body must be JSON.
 */
export function guardControl(access: ControlAccess, allowedHosts: string[]) {
  return async function guardControl(ctx: Context, next: Next) {
    if (!isControlPath(ctx.path)) return next();
    if (!access.enabled)
      throw notFound(`Route ${ctx.method} ${ctx.path}`, [access.offReason ?? "the control API is off"]);
    const host = hostnameOf(ctx.get("host"));
    if (access.token === undefined && !isLoopbackHost(host) && !isIpLiteral(host) && !allowedHosts.includes(host)) {
      throw new ApiError(403, "FORBIDDEN", "This Host may not use the control API", [
        `Host '${host}' is not allowed; add it with --allowed-hosts (or set --admin-token)`,
      ]);
    }
    const origin = ctx.get("origin");
    if (origin && !originAllowed(origin, access.allowedOrigins)) {
      throw new ApiError(403, "FORBIDDEN", "This origin may not use the control API", [
        `Origin '${origin}' is not allowed; add it with --cors`,
      ]);
    }
    if (access.token !== undefined && !bearerMatches(ctx.get("authorization"), access.token)) {
      throw new ApiError(401, "UNAUTHORIZED", "The control API needs the admin token", [
        "send Authorization: Bearer <--admin-token>",
      ]);
    }
    if (carriesBody(ctx) && !ctx.is("application/json")) {
      throw new ApiError(415, "UNSUPPORTED_MEDIA_TYPE", "Send the body as application/json", [
        `content-type '${ctx.get("content-type") || "(none)"}' is not supported`,
      ]);
    }
    return next();
  };
}

/** A request with a body: chunked, or a content-length above 0 (a bodiless POST needs no content-type). */
function carriesBody(ctx: Context): boolean {
  const length = ctx.get("content-length");
  return ctx.get("transfer-encoding") !== "" || (length !== "" && Number(length) > 0);
}
