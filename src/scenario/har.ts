import { STATUS_CODES } from "node:http";
import { IMAGE_FORMATS } from "../schemas/image.ts";

/** A response's content as HAR holds it: text, or bytes in base64. */
function contentOf(url: string, body: string | Uint8Array) {
  if (typeof body === "string")
    return { size: Buffer.byteLength(body), mimeType: "application/json; charset=utf-8", text: body };
  const format = url.split("?")[0]!.split(".").pop() as keyof typeof IMAGE_FORMATS;
  const mimeType = IMAGE_FORMATS[format] ?? "application/octet-stream";
  return { size: body.byteLength, mimeType, text: Buffer.from(body).toString("base64"), encoding: "base64" };
}

// Snapshots carry no times of their own; a fixed one keeps the file the same on every export.
const RECORDED_AT = "2025-06-01T12:00:00.000Z";

/**
 * The responses as one HAR 1.2 log, each a GET of `<baseUrl><url>`, so that a browser test
 * can replay them (Playwright's `routeFromHAR`) with no simulator running. Each response: the request's path and query,
 * its status, and the body's exact text (JSON) or bytes (an image).
 */
export function harOf(
  responses: readonly { url: string; status: number; body: string | Uint8Array }[],
  baseUrl: string,
  creator: { name: string; version: string },
) {
  const base = baseUrl.replace(/\/+$/, "");
  return {
    log: {
      version: "1.2",
      creator,
      pages: [],
      entries: responses.map(({ url, status, body }) => {
        const target = new URL(`${base}${url}`);
        const content = contentOf(url, body);
        return {
          startedDateTime: RECORDED_AT,
          time: 0,
          request: {
            method: "GET",
            url: target.href,
            httpVersion: "HTTP/1.1",
            cookies: [],
            headers: [{ name: "accept", value: typeof body === "string" ? "application/json" : "image/*" }],
            queryString: [...target.searchParams].map(([name, value]) => ({ name, value })),
            headersSize: -1,
            bodySize: 0,
          },
          response: {
            status,
            statusText: STATUS_CODES[status] ?? "",
            httpVersion: "HTTP/1.1",
            cookies: [],
            headers: [
              { name: "content-type", value: content.mimeType },
              { name: "access-control-allow-origin", value: "*" },
            ],
            content,
            redirectURL: "",
            headersSize: -1,
            bodySize: content.size,
          },
          cache: {},
          timings: { send: 0, wait: 0, receive: 0 },
        };
      }),
    },
  };
}
