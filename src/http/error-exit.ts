// The one way out: the app's error exit, and the server's own refusals written as the same JSON errors.
import type { Context, Next } from "koa";
import { apiError, apiErrorIn, ERRORS, type ApiError, type ErrorDescriptor } from "../core/errors.ts";
import type { RequestLog } from "../control/request-log.ts";
import { createServer, STATUS_CODES, type RequestListener, type Server, type ServerResponse } from "node:http";

/**
 * The outermost middleware, the one way out of the app: whatever a layer below threw leaves as its catalog error's
 * body (an error a library wrapped, as its cause, too); anything else is a bug, answered 500 INTERNAL with its stack
 * told to `report`, never sent. Then the request log records the answer as it goes out, errors included.
 */
export function errorExit(log: Pick<RequestLog, "record">, report: (message: string) => void) {
  return async function errorExit(ctx: Context, next: Next) {
    const started = performance.now();
    try {
      await next();
      if (ctx.status === 404 && ctx.body === undefined)
        throw apiError(ERRORS.NOT_FOUND, { what: `Route ${ctx.method} ${ctx.path}` });
    } catch (thrown) {
      const known = apiErrorIn(thrown);
      if (!known) report(`${ctx.method} ${ctx.url} failed: ${(thrown as Error).stack ?? String(thrown)}`);
      const error = known ?? apiError(ERRORS.INTERNAL);
      ctx.status = error.status;
      ctx.set(error.headers);
      ctx.body = error.body;
    } finally {
      log.record(ctx, performance.now() - started);
    }
  };
}

/** How a server writes its error body: the API's JSON error, or a JSON-RPC error. */
export type ErrorWriter = (error: ApiError) => string;

/**
 * An HTTP server whose own refusals carry the server's JSON error body instead of Node's bare
 * status line: what the parser refuses before any handler runs (oversized headers, a malformed
 * request, a header timeout), an HTTP/1.1 request without a Host header, and an `Expect` other
 * than 100-continue.
 */
export function jsonHttpServer(listener: RequestListener, write: ErrorWriter): Server {
  // Node would answer a missing Host itself, with an empty body.
  const server = createServer({ requireHostHeader: false }, (req, res) => {
    if (req.httpVersion === "1.1" && req.headers.host === undefined)
      return refuse(res, apiError(ERRORS.MISSING_HOST), write);
    listener(req, res);
  });
  server.on("checkExpectation", (req, res) =>
    refuse(res, apiError(ERRORS.EXPECTATION_FAILED, { expect: req.headers.expect ?? "" }), write),
  );
  // What Node's HTTP parser refuses before any handler runs.
  server.on("clientError", (error: Error & { code?: string }, socket) => {
    if (error.code === "ECONNRESET" || !socket.writable) return void socket.destroy();
    const refused = apiError(CLIENT_ERRORS.get(error.code ?? "") ?? ERRORS.NOT_HTTP);
    const body = write(refused);
    socket.end(
      `HTTP/1.1 ${refused.status} ${STATUS_CODES[refused.status]}\r\ncontent-type: ` +
        `application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
    );
  });
  return server;
}

function refuse(res: ServerResponse, error: ApiError, write: ErrorWriter): void {
  const body = write(error);
  res
    .writeHead(error.status, {
      "content-type": "application/json",
      "content-length": Buffer.byteLength(body),
      connection: "close",
    })
    .end(body);
}

/** The parser's refusals by their code; any other is a request that is not HTTP. */
const CLIENT_ERRORS = new Map<string, ErrorDescriptor>([
  ["HPE_HEADER_OVERFLOW", ERRORS.HEADERS_TOO_LARGE],
  ["HPE_HEADERS_TIMEOUT", ERRORS.REQUEST_TIMEOUT],
  ["ERR_HTTP_REQUEST_TIMEOUT", ERRORS.REQUEST_TIMEOUT],
]);
