import { Agent as HttpAgent, request as httpRequest } from "node:http";
import { Agent as HttpsAgent, request as httpsRequest } from "node:https";
import type { LookupFunction } from "node:net";

/** What one attempt got: the receiver's status, or why there was none; and how long it took. */
export interface Attempt {
  status?: number;
  error?: string;
  latencyMs: number;
}

/** The connections of one receiver (kept alive between deliveries; each new one resolves its host through `lookup`). */
export function receiverAgent(url: URL, lookup: LookupFunction | undefined): HttpAgent {
  const options = { keepAlive: true, maxSockets: 1, ...(lookup ? { lookup } : {}) };
  return url.protocol === "https:" ? new HttpsAgent(options) : new HttpAgent(options);
}

/** POSTs `body` once; a redirect is an answer like any other (never followed). Never throws. */
export function postOnce(
  url: URL,
  body: string,
  headers: Record<string, string>,
  { agent, timeoutMs }: { agent: HttpAgent; timeoutMs: number },
): Promise<Attempt> {
  const started = performance.now();
  const latencyMs = () => Math.round((performance.now() - started) * 10) / 10;
  return new Promise((resolve) => {
    const send = url.protocol === "https:" ? httpsRequest : httpRequest;
    const request = send(
      url,
      {
        method: "POST",
        agent,
        headers: { ...headers, "content-type": "application/json", "content-length": String(Buffer.byteLength(body)) },
      },
      (response) => {
        response.resume();
        resolve({ status: response.statusCode!, latencyMs: latencyMs() });
      },
    );
    request.setTimeout(timeoutMs, () => request.destroy(new Error(`no answer within ${timeoutMs} ms`)));
    request.once("error", (error: Error & { code?: string }) =>
      resolve({
        error: error.code && !error.message.includes(error.code) ? `${error.code}: ${error.message}` : error.message,
        latencyMs: latencyMs(),
      }),
    );
    request.end(body);
  });
}
