import { createServer, STATUS_CODES, type RequestListener, type Server, type ServerResponse } from "node:http";

/** The message of a request the parser could not read at all. */
export const NOT_HTTP = "The request is not valid HTTP";

/** How a server writes its error body: the API's JSON error, or a JSON-RPC error. */
export type ErrorWriter = (status: number, message: string) => string;

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
      return refuse(res, 400, "An HTTP/1.1 request needs a Host header", write);
    listener(req, res);
  });
  server.on("checkExpectation", (req, res) =>
    refuse(res, 417, `Expect: '${req.headers.expect}' is not supported (only 100-continue)`, write),
  );
  answerClientErrors(server, write);
  return server;
}

function refuse(res: ServerResponse, status: number, message: string, write: ErrorWriter): void {
  const body = write(status, message);
  res
    .writeHead(status, {
      "content-type": "application/json",
      "content-length": Buffer.byteLength(body),
      connection: "close",
    })
    .end(body);
}

/** What Node's HTTP parser refuses before any handler runs, answered with `write`'s body. */
function answerClientErrors(server: Server, write: ErrorWriter): void {
  server.on("clientError", (error: Error & { code?: string }, socket) => {
    if (error.code === "ECONNRESET" || !socket.writable) return void socket.destroy();
    const [status, message] = refusal(error.code);
    const body = write(status, message);
    socket.end(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
    );
  });
}

function refusal(code: string | undefined): [number, string] {
  switch (code) {
    case "HPE_HEADER_OVERFLOW":
      return [431, "The request headers are too large"];
    case "HPE_HEADERS_TIMEOUT":
    case "ERR_HTTP_REQUEST_TIMEOUT":
      return [408, "The request took too long to arrive"];
    default:
      return [400, NOT_HTTP];
  }
}
