import { apiError, ERRORS, StartError, START_ERRORS, type ApiError } from "../core/errors.ts";
import type { SimulatorOptions } from "../core/config.ts";
import type { IncomingMessage } from "node:http";
import { bearerMatches } from "./token.ts";

/** Where a request arrives: the API's port (the API and the control API under /_sim), or a chain's JSON-RPC port. */
export type Surface = "api" | "rpc";

/** What the policy reads of a request, and nothing else. */
export interface AccessRequest {
  surface: Surface;
  method: string;
  path: string;
  /** The `Host` header as sent. */
  host: string;
  origin?: string;
  authorization?: string;
  contentType?: string;
  /** Chunked, or a content-length above 0 (a bodiless POST needs no content-type). */
  hasBody: boolean;
}

/** What the policy reads of a request that came to `surface`, from its headers; `path` without its query. */
export function accessRequestOf(surface: Surface, req: IncomingMessage, path: string): AccessRequest {
  const { host = "", origin, authorization, "content-type": contentType } = req.headers;
  const hasBody = !!req.headers["transfer-encoding"] || Number(req.headers["content-length"]) > 0;
  return { surface, method: req.method ?? "", path, host, origin, authorization, contentType, hasBody };
}

/** The control API's paths. */
export const isControlPath = (path: string) => path === "/_sim" || path.startsWith("/_sim/");

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/** Who may do what on each surface, from the options. */
interface Rules {
  /** Host names besides loopback names and IP addresses, per surface. */
  hosts: Record<Surface, string[]>;
  /** Browser origins, per surface (the loopback ones always). */
  origins: Record<Surface, string[]>;
  /** `--admin-token`: the control API needs it when set; a JSON-RPC port off loopback always. */
  token?: string;
  /** Why the control API is off (the API listens off loopback without a token), or undefined: it is on. */
  controlOff?: string;
  /** The JSON-RPC ports listen on loopback only. */
  rpcOnLoopback: boolean;
}

/**
 * Who may change state or read the control plane, decided in one place for every port. Any web page the
 * developer has open can reach a loopback port: a request that changes state (a mint, the control API,
 * any JSON-RPC call) must come from an allowed browser origin, and under a `Host` DNS rebinding cannot
 * produce (a loopback name, an IP address, an allowed host) unless it carries the admin token, which no
 * page can know. Reads of the API are public, to every origin.
 */
export class AccessPolicy {
  readonly #rules: Rules;

  constructor(rules: Rules) {
    this.#rules = rules;
  }

  /** Why the request may not go on (an error of the catalog to answer), or undefined. */
  refusal(request: AccessRequest): ApiError | undefined {
    if (request.surface === "rpc") return this.#rpc(request);
    if (isControlPath(request.path)) return this.#control(request);
    if (SAFE_METHODS.has(request.method)) return undefined;
    return this.#host(request, "change state") ?? this.#origin(request, "change state", "--cors");
  }

  /** The origin to name back in Access-Control-Allow-Origin on a surface, if it is allowed there. */
  allowedOrigin(surface: Surface, origin: string | undefined): string | undefined {
    return origin !== undefined && originAllowed(origin, this.#rules.origins[surface]) ? origin : undefined;
  }

  /** Whether the control API is on (`/_sim` answers at all). */
  get controlOn(): boolean {
    return this.#rules.controlOff === undefined;
  }

  #control(request: AccessRequest): ApiError | undefined {
    const { controlOff, token } = this.#rules;
    if (controlOff !== undefined)
      return apiError(ERRORS.CONTROL_OFF, { method: request.method, path: request.path }, { errors: [controlOff] });
    const act = "use the control API";
    return (
      (token === undefined ? this.#host(request, act) : undefined) ??
      this.#origin(request, act, "--cors") ??
      this.#token(request, "The control API", token) ??
      this.#json(request, "send the body as application/json")
    );
  }

  #rpc(request: AccessRequest): ApiError | undefined {
    const { rpcOnLoopback, token } = this.#rules;
    // Off loopback every call carries the token, which no page can know: any Host will do there.
    const act = "use this JSON-RPC port";
    return (
      (rpcOnLoopback ? this.#host(request, act) : undefined) ??
      this.#origin(request, act, "--rpc-cors") ??
      (rpcOnLoopback ? undefined : this.#token(request, "This JSON-RPC port (not on loopback)", token)) ??
      (request.method === "POST"
        ? this.#json({ ...request, hasBody: true }, "send JSON-RPC as content-type application/json")
        : undefined)
    );
  }

  #host(request: AccessRequest, act: string): ApiError | undefined {
    const host = hostnameOf(request.host);
    if (isLoopbackHost(host) || isIpLiteral(host) || this.#rules.hosts[request.surface].includes(host))
      return undefined;
    const remedy = request.surface === "api" && isControlPath(request.path) ? " (or set --admin-token)" : "";
    const line = `Host '${host}' is not allowed; add it with --allowed-hosts${remedy}`;
    return apiError(ERRORS.HOST_NOT_ALLOWED, { act }, { errors: [line] });
  }

  #origin(request: AccessRequest, act: string, flag: string): ApiError | undefined {
    const { origin } = request;
    if (origin === undefined || origin === "" || this.allowedOrigin(request.surface, origin)) return undefined;
    const line = `Origin '${origin}' is not allowed; add it with ${flag}`;
    return apiError(ERRORS.ORIGIN_NOT_ALLOWED, { act }, { errors: [line] });
  }

  #token(request: AccessRequest, what: string, token: string | undefined): ApiError | undefined {
    if (token === undefined || bearerMatches(request.authorization, token)) return undefined;
    return apiError(ERRORS.ADMIN_TOKEN_REQUIRED, { what }, { errors: ["send Authorization: Bearer <--admin-token>"] });
  }

  #json(request: AccessRequest, how: string): ApiError | undefined {
    // Stryker disable next-line StringLiteral: any text that is not JSON's type stands for no content-type alike
    if (!request.hasBody || /^application\/json\s*(;|$)/i.test(request.contentType ?? "")) return undefined;
    const line = `content-type '${request.contentType || "(none)"}' is not supported: ${how}`;
    return apiError(ERRORS.UNSUPPORTED_MEDIA_TYPE, { expected: "application/json" }, { errors: [line] });
  }
}

/**
 * The policy the options give. Refuses (RPC_UNGUARDED) JSON-RPC ports served off loopback without a token: anyone
 * could send as the developer wallets.
 */
export function accessPolicy(options: SimulatorOptions): AccessPolicy {
  const { host, rpcHost, serveRpc, rpcAllowedHosts, publicUrl, apiCors, rpcCors, adminToken } = options;
  const rpcOnLoopback = isLoopbackHost(rpcHost);
  if (serveRpc && !rpcOnLoopback && adminToken === undefined) {
    throw new StartError(
      START_ERRORS.RPC_UNGUARDED,
      `the JSON-RPC ports would listen on ${rpcHost}, where anyone could send transactions as the developer wallets: ` +
        `set --admin-token (or ADMIN_TOKEN)`,
    );
  }
  const controlOn = isLoopbackHost(host) || adminToken !== undefined;
  return new AccessPolicy({
    hosts: {
      // The --public-url's host name, a Host the API may be reached under.
      // Stryker disable next-line ArrayDeclaration: a name added here that no request sends allows nothing
      api: [...rpcAllowedHosts, ...(publicUrl ? [new URL(publicUrl).hostname.toLowerCase()] : [])],
      // Consulted only on loopback: off it, the token stands in for the Host check.
      rpc: [...rpcAllowedHosts],
    },
    origins: { api: withLoopbackOrigins(apiCors), rpc: withLoopbackOrigins(rpcCors) },
    token: adminToken,
    controlOff: controlOn
      ? undefined
      : `the control API is off: the API listens on ${host}, not loopback, and no --admin-token (or ADMIN_TOKEN) was given`,
    rpcOnLoopback,
  });
}

/**
 * The policy of a dev tool that listens on loopback only (`nft-sim proxy`): its `/_sim` and the requests it passes on
 * that change state need a loopback Host (or an IP address) and, from a browser, a loopback origin or one of `cors`.
 */
export function loopbackPolicy(cors: readonly string[] = []): AccessPolicy {
  return new AccessPolicy({
    hosts: { api: [], rpc: [] },
    origins: { api: withLoopbackOrigins(cors), rpc: withLoopbackOrigins([]) },
    rpcOnLoopback: true,
  });
}

// Host names and browser origins, as the access policy reads them.

/** Browser origins on this machine, any port: what a local dev server of the developer's serves from. */
export const LOOPBACK_ORIGINS = ["http://localhost:*", "http://127.0.0.1:*", "http://[::1]:*"];

const LOOPBACK_NAMES = new Set(["localhost", "127.0.0.1", "::1", "[::1]"]);

/** Whether a listening host is loopback only (a wildcard address is not). */
export function isLoopbackHost(host: string): boolean {
  return LOOPBACK_NAMES.has(host) || /^127\.\d+\.\d+\.\d+$/.test(host);
}

export function isWildcardHost(host: string): boolean {
  return host === "0.0.0.0" || host === "::";
}

/** An IP address written as such: a `Host` no DNS rebinding can produce. */
export function isIpLiteral(host: string): boolean {
  return /^\d{1,3}(\.\d{1,3}){3}$/.test(host) || (host.includes(":") && /^[0-9a-f:.]+$/i.test(host));
}

/** `origin` matches one of `allowed`: exactly, `*` for any, or `http://name:*` for any port of that name. */
export function originAllowed(origin: string, allowed: readonly string[]): boolean {
  return allowed.some(
    (pattern) =>
      pattern === "*" ||
      pattern === origin ||
      (pattern.endsWith(":*") &&
        origin.startsWith(pattern.slice(0, -1)) &&
        /^\d+$/.test(origin.slice(pattern.length - 1))),
  );
}

/** The host name of a `Host` header, without its port and brackets, lower case. */
export function hostnameOf(header: string): string {
  const bracketed = header.match(/^\[([^\]]+)\](:\d+)?$/);
  if (bracketed) return bracketed[1]!;
  return header.replace(/:\d+$/, "").toLowerCase();
}

/** The loopback origins and those given (`--cors`, `--rpc-cors` widen the default, never narrow it). */
export function withLoopbackOrigins(given: readonly string[]): string[] {
  return [...new Set([...LOOPBACK_ORIGINS, ...given])];
}
