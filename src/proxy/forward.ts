import { request as httpRequest, type IncomingHttpHeaders } from "node:http";
import { request as httpsRequest } from "node:https";
import { apiError, ERRORS } from "../core/errors.ts";

/** A request as the client sent it: its method, path with query, headers (as Node reads them) and body bytes. */
export interface Outgoing {
  method: string;
  /** The path and query, as sent (`/api/v2/collection?perPage=5`). */
  url: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

/** The upstream's answer, whole: status, headers (hop-by-hop ones dropped) and body bytes. */
export interface Upstream {
  status: number;
  headers: Record<string, string | string[]>;
  body: Buffer;
}

/** The headers of one connection, not of the message (RFC 9110 7.6.1): never passed on, either way. */
const HOP_BY_HOP = new Set([
  "connection",
  "keep-alive",
  "proxy-authenticate",
  "proxy-authorization",
  "proxy-connection",
  "te",
  "trailer",
  "transfer-encoding",
  "upgrade",
]);

/** The headers without hop-by-hop ones (and those `Connection` names), `host` and `content-length`, which are set anew. */
export function endToEnd(headers: IncomingHttpHeaders): Record<string, string | string[]> {
  const named = String(headers.connection ?? "")
    .split(",")
    .map((name) => name.trim().toLowerCase());
  const kept: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined || HOP_BY_HOP.has(name) || named.includes(name)) continue;
    if (name === "host" || name === "content-length") continue;
    kept[name] = value;
  }
  return kept;
}

/** Where a request goes: always the upstream's origin (a path such as `//elsewhere/` stays a path), under its path. */
export function upstreamUrl(upstream: URL, url: string): URL {
  const at = url.indexOf("?");
  const target = new URL(upstream.origin);
  target.pathname = upstream.pathname.replace(/\/+$/, "") + (at === -1 ? url : url.slice(0, at));
  target.search = at === -1 ? "" : url.slice(at);
  return target;
}

/**
 * Sends the request to `upstream` unchanged but for what belongs to the connection (hop-by-hop headers, `Host`,
 * `Content-Length`), and reads the whole answer; an upstream that does not answer within `timeoutMs` (or refuses,
 * or drops the connection) is UPSTREAM_UNREACHABLE.
 */
export function forward(upstream: URL, outgoing: Outgoing, timeoutMs: number): Promise<Upstream> {
  const target = upstreamUrl(upstream, outgoing.url);
  const send = target.protocol === "https:" ? httpsRequest : httpRequest;
  const bodiless = outgoing.body.length === 0 && ["GET", "HEAD", "OPTIONS", "DELETE"].includes(outgoing.method);
  const headers = {
    ...endToEnd(outgoing.headers),
    ...(bodiless ? {} : { "content-length": String(outgoing.body.length) }),
  };
  return new Promise((resolve, reject) => {
    const unreachable = (cause: Error) =>
      reject(apiError(ERRORS.UPSTREAM_UNREACHABLE, { upstream: upstream.origin }, { errors: [cause.message] }));
    const req = send(target, { method: outgoing.method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("error", unreachable);
      res.on("end", () =>
        resolve({ status: res.statusCode ?? 502, headers: endToEnd(res.headers), body: Buffer.concat(chunks) }),
      );
    });
    req.setTimeout(timeoutMs, () => req.destroy(new Error(`no answer within ${timeoutMs} ms`)));
    req.on("error", unreachable);
    req.end(outgoing.body);
  });
}
