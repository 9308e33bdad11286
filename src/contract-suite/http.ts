import { API_KEY_HEADER } from "../schemas/common.ts";
import { CheckStopped } from "./stopped.ts";

/** One request the suite sent and what came back; `request` is how a report names it. */
export interface Exchange {
  method: string;
  url: string;
  request: string;
  status: number;
  contentType: string;
  text: string;
  /** The parsed body, or undefined when it is not JSON. */
  json: unknown;
}

export type Query = Record<string, string | number | boolean | undefined>;

/**
 * A small HTTP client for the target. GETs are remembered for the run, since
 * many checks read the same page and a read must not change between them.
 */
export class Api {
  readonly baseUrl: string;
  #timeoutMs: number;
  #keyInHeader: boolean;
  #gets = new Map<string, Promise<Exchange>>();

  /** `apiKeyIn: "header"`: the `apiKey` a request names goes in the ALTURA_API_KEY header instead of the query. */
  constructor(
    baseUrl: string,
    { timeoutMs = 15_000, apiKeyIn = "query" }: { timeoutMs?: number; apiKeyIn?: ApiKeyIn } = {},
  ) {
    this.baseUrl = baseUrl.replace(/\/+$/, "");
    this.#timeoutMs = timeoutMs;
    this.#keyInHeader = apiKeyIn === "header";
  }

  url(path: string, query: Query = {}): string {
    const params = new URLSearchParams();
    for (const [name, value] of Object.entries(query)) if (value !== undefined) params.append(name, String(value));
    const search = params.toString();
    return `${this.baseUrl}${path}${search ? `?${search}` : ""}`;
  }

  get(path: string, query: Query = {}): Promise<Exchange> {
    const url = this.url(path, query);
    let pending = this.#gets.get(url);
    if (!pending) {
      pending = this.#send("GET", url);
      this.#gets.set(url, pending);
      pending.catch(() => this.#gets.delete(url));
    }
    return pending;
  }

  post(path: string, query: Query, body: unknown): Promise<Exchange> {
    return this.#send("POST", this.url(path, query), body);
  }

  /** Reads after a write must see it. */
  forgetReads(): void {
    this.#gets.clear();
  }

  async #send(method: string, url: string, body?: unknown): Promise<Exchange> {
    // The key moved out of the query into its header.
    const parsed = this.#keyInHeader ? new URL(url) : undefined;
    const key = parsed?.searchParams.get("apiKey") ?? undefined;
    parsed?.searchParams.delete("apiKey");
    const sent = key === undefined ? url : parsed!.toString();
    const request = `${method} ${redactApiKey(sent)}${key === undefined ? "" : ` (${API_KEY_HEADER}: ***)`}`;
    let response: Response;
    let text: string;
    try {
      response = await fetch(sent, {
        method,
        headers: {
          accept: "application/json",
          ...(body === undefined ? {} : { "content-type": "application/json" }),
          ...(key === undefined ? {} : { [API_KEY_HEADER]: key }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(this.#timeoutMs),
      });
      text = await response.text();
    } catch (error) {
      // The request itself failed (refused, reset, timed out): no status to judge.
      const { message, cause } = error as Error & { cause?: { code?: string; message?: string } };
      const detail = cause?.code ?? cause?.message;
      throw new CheckStopped(`the request failed: ${detail ? `${message} (${detail})` : (message ?? String(error))}`, {
        request,
      });
    }
    return {
      method,
      url,
      request,
      status: response.status,
      contentType: response.headers.get("content-type") ?? "",
      text,
      json: parseJson(text),
    };
  }
}

/** The parsed body, or undefined when it is not JSON. */
export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** Where the suite sends an API key: the `apiKey` query parameter, or the ALTURA_API_KEY header (the original takes both). */
export type ApiKeyIn = "query" | "header";

/** Reports end up in CI logs: never print the key itself. */
export function redactApiKey(url: string): string {
  return url.replace(/([?&]apiKey=)[^&#]*/g, (_, prefix: string) => `${prefix}***`);
}
