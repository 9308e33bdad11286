import { STATUS_CODES, type Server } from "node:http";

/** How a server writes its error body: the API's JSON error, or a JSON-RPC error. */
export type ErrorWriter = (status: number, message: string) => string;

/**
 * What Node's HTTP parser refuses before any handler runs (oversized headers, a
 * malformed request line, a header timeout) answered with the server's own JSON
 * error body instead of Node's bare status line.
 */
export function answerClientErrors(server: Server, write: ErrorWriter): void {
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
      return [400, "The request is not valid HTTP"];
  }
}
