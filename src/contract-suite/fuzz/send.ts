import { request as httpRequest } from "node:http";
import { request as httpsRequest } from "node:https";
import { parseJson } from "../http.ts";
import { urlOf, type FuzzRequest } from "./requests.ts";

/** What came back for one generated request, or why nothing did. */
export type FuzzAnswer = { status: number; text: string; json: unknown; ms: number } | { failed: string; ms: number };

/**
 * Sends a generated request exactly as generated: its headers in order, repeated ones repeated,
 * Latin-1 values as such, and no Host header when it says so (fetch would merge, refuse or add
 * them). Answers within `limitMs` or reports why not.
 */
export function send(baseUrl: string, request: FuzzRequest, limitMs: number): Promise<FuzzAnswer> {
  const started = performance.now();
  const url = new URL(urlOf(baseUrl, request));
  const headers = request.headers.some(([name]) => name.toLowerCase() === "host")
    ? request.headers.filter(([name, value]) => name.toLowerCase() !== "host" || value !== "")
    : [["host", url.host], ...request.headers];
  const body = request.body === undefined ? undefined : Buffer.from(request.body, "utf8");
  const raw = [...headers.flat(), ...(body ? ["content-length", String(body.length)] : [])];
  const ms = () => performance.now() - started;
  return new Promise((resolve) => {
    const req = (url.protocol === "https:" ? httpsRequest : httpRequest)(
      url,
      { method: request.method, headers: raw, setHost: false },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("error", (error) => resolve({ failed: error.message, ms: ms() }));
        res.on("end", () => {
          const text = Buffer.concat(chunks).toString("utf8");
          resolve({ status: res.statusCode ?? 0, text, json: parseJson(text), ms: ms() });
        });
      },
    );
    req.setTimeout(limitMs, () => req.destroy(new Error(`no answer within ${limitMs} ms`)));
    req.on("error", (error: Error & { code?: string }) => resolve({ failed: error.code ?? error.message, ms: ms() }));
    req.end(body);
  });
}
