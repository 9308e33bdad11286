/** One snapshotted response: the request's path and query, its status, and the body's exact text. */
export interface RecordedResponse {
  url: string;
  status: number;
  body: string;
}

const STATUS_TEXT: Record<number, string> = { 200: "OK", 400: "Bad Request", 404: "Not Found" };

// Snapshots carry no times of their own; a fixed one keeps the file the same on every export.
const RECORDED_AT = "2025-06-01T12:00:00.000Z";

/**
 * The responses as one HAR 1.2 log, each a GET of `<baseUrl><url>`, so that a browser test
 * can replay them (Playwright's `routeFromHAR`) with no simulator running.
 */
export function harOf(
  responses: readonly RecordedResponse[],
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
        return {
          startedDateTime: RECORDED_AT,
          time: 0,
          request: {
            method: "GET",
            url: target.href,
            httpVersion: "HTTP/1.1",
            cookies: [],
            headers: [{ name: "accept", value: "application/json" }],
            queryString: [...target.searchParams].map(([name, value]) => ({ name, value })),
            headersSize: -1,
            bodySize: 0,
          },
          response: {
            status,
            statusText: STATUS_TEXT[status] ?? "",
            httpVersion: "HTTP/1.1",
            cookies: [],
            headers: [
              { name: "content-type", value: "application/json; charset=utf-8" },
              { name: "access-control-allow-origin", value: "*" },
            ],
            content: { size: Buffer.byteLength(body), mimeType: "application/json; charset=utf-8", text: body },
            redirectURL: "",
            headersSize: -1,
            bodySize: Buffer.byteLength(body),
          },
          cache: {},
          timings: { send: 0, wait: 0, receive: 0 },
        };
      }),
    },
  };
}
