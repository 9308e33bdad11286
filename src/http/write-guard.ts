import type { Context, Next } from "koa";
import { ApiError } from "../errors.ts";
import { isControlPath } from "../control/guard.ts";
import { hostnameOf, isIpLiteral, isLoopbackHost, originAllowed } from "./origins.ts";

/** Who may change state through the API: which `Host` names and which browser origins. */
export interface WritePolicy {
  /** Host names besides loopback names and IP addresses (`--allowed-hosts`, the `--public-url` host). */
  allowedHosts: string[];
  /** Browser origins (`--cors`); a request without `Origin` is not a browser's cross-site one. */
  allowedOrigins: string[];
}

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * Any web page the developer has open can reach a loopback port. Reads are public and open
 * to every origin; a request that may change state (a mint, the control API) must come from
 * an allowed origin, and under a `Host` that DNS rebinding cannot produce.
 */
export function guardWrites(policy: WritePolicy) {
  return async function guardWrites(ctx: Context, next: Next) {
    // The control API has a guard of its own (src/control/guard.ts), which takes the token in place of a known Host.
    if (SAFE_METHODS.has(ctx.method) || isControlPath(ctx.path)) return next();
    const host = hostnameOf(ctx.get("host"));
    if (!isLoopbackHost(host) && !isIpLiteral(host) && !policy.allowedHosts.includes(host)) {
      throw new ApiError(403, "FORBIDDEN", "This Host may not change state", [
        `Host '${host}' is not allowed to change state; add it with --allowed-hosts`,
      ]);
    }
    const origin = ctx.get("origin");
    if (origin && !originAllowed(origin, policy.allowedOrigins)) {
      throw new ApiError(403, "FORBIDDEN", "This origin may not change state", [
        `Origin '${origin}' is not allowed to change state; add it with --cors`,
      ]);
    }
    return next();
  };
}
