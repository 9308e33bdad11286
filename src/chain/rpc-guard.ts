import type { IncomingMessage } from "node:http";
import { bearerMatches } from "../http/admin-token.ts";
import { hostnameOf, isLoopbackHost, originAllowed } from "../http/origins.ts";

export { isLoopbackHost };

/** Who may use a chain's JSON-RPC port: which Host names, which browser Origins, and the token off loopback. */
export interface RpcPolicy {
  /** Host names besides the loopback ones (`--allowed-hosts`). */
  allowedHosts: string[];
  /** Browser origins, `*` for any port (`http://localhost:*`), or `*` for every origin (`--rpc-cors`). */
  allowedOrigins: string[];
  /** Required as `Authorization: Bearer <token>` on every call when the port is not on loopback. */
  token?: string;
  /** The port listens on loopback only. */
  loopback: boolean;
}

/** A refusal: the HTTP status and the reason, for a JSON-RPC error body. */
export interface Refusal {
  status: number;
  message: string;
}

/**
 * Checks a request before anything is read or run. A web page the developer has open can reach
 * a loopback port; it must neither get through by renaming the host (DNS rebinding), nor from
 * its own origin, nor with a "simple" text/plain POST that skips the browser's preflight.
 */
export function refusalOf(req: IncomingMessage, policy: RpcPolicy): Refusal | undefined {
  const host = hostnameOf(req.headers.host ?? "");
  // Off loopback every call carries the token, which no page can know: any Host will do there.
  if (policy.loopback && !isLoopbackHost(host) && !policy.allowedHosts.includes(host)) {
    return { status: 403, message: `Host '${host}' is not allowed; add it with --allowed-hosts` };
  }
  const origin = req.headers.origin;
  if (origin !== undefined && !originAllowed(origin, policy.allowedOrigins)) {
    return { status: 403, message: `Origin '${origin}' is not allowed; add it with --rpc-cors` };
  }
  if (!policy.loopback && !bearerMatches(req.headers.authorization, policy.token)) {
    return {
      status: 401,
      message: "This JSON-RPC port is not on loopback: send Authorization: Bearer <--admin-token>",
    };
  }
  if (req.method === "POST" && !/^application\/json\s*(;|$)/i.test(req.headers["content-type"] ?? "")) {
    return { status: 415, message: "Send JSON-RPC as content-type application/json" };
  }
  return undefined;
}

/** The origin to name in Access-Control-Allow-Origin, if the request's is allowed. */
export function allowedOriginOf(req: IncomingMessage, policy: RpcPolicy): string | undefined {
  const origin = req.headers.origin;
  return origin !== undefined && originAllowed(origin, policy.allowedOrigins) ? origin : undefined;
}
