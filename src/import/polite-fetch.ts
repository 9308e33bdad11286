import { StartError } from "../core/errors.ts";
import { START_ERRORS } from "../core/start-errors.ts";
import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/** An answer as the import keeps it: the URL (never with a key), its status and its body's text. */
export interface LiveAnswer {
  url: string;
  status: number;
  contentType: string;
  text: string;
}

export interface PoliteFetchOptions {
  /** Requests in flight at once (default 4). */
  concurrency?: number;
  /** Sent as the ALTURA_API_KEY header, so it is in no URL, cache file or report. */
  apiKey?: string;
  /** Every definitive answer (2xx, 404) kept here by URL: a rerun fetches none of them again. */
  cacheDir?: string;
  /** Tries per URL on 429, 5xx and a dropped connection (default 8). */
  tries?: number;
  /** The longest wait between tries, Retry-After included (default 30 s). */
  maxWaitMs?: number;
  /** Each answer settled (fetched or from the cache): a progress bar. */
  onAnswer?: (answer: LiveAnswer, fromCache: boolean) => void;
}

const RETRIED = (status: number) => status === 429 || status >= 500;

/**
 * GETs an upstream politely: a bounded number of requests in flight, 429 and 5xx (and dropped connections) tried again
 * after the wait `Retry-After` asks for (else a doubling backoff), and every definitive answer kept in an on-disk cache
 * keyed by URL.
 */
export class PoliteFetcher {
  readonly counts = { fetched: 0, fromCache: 0, retried: 0 };
  readonly #options: Required<Omit<PoliteFetchOptions, "apiKey" | "cacheDir" | "onAnswer">> & PoliteFetchOptions;
  #inFlight = 0;
  #waiting: (() => void)[] = [];

  constructor(options: PoliteFetchOptions = {}) {
    this.#options = { concurrency: 4, tries: 8, maxWaitMs: 30_000, ...options };
    if (options.cacheDir) mkdirSync(options.cacheDir, { recursive: true });
  }

  async get(url: string): Promise<LiveAnswer> {
    const cached = this.#cached(url);
    if (cached) {
      this.counts.fromCache++;
      this.#options.onAnswer?.(cached, true);
      return cached;
    }
    await this.#slot();
    try {
      const answer = await this.#fetchWithRetries(url);
      this.counts.fetched++;
      if ((answer.status >= 200 && answer.status < 300) || answer.status === 404) this.#keep(answer);
      this.#options.onAnswer?.(answer, false);
      return answer;
    } finally {
      this.#release();
    }
  }

  async #fetchWithRetries(url: string): Promise<LiveAnswer> {
    const headers: Record<string, string> = { accept: "application/json" };
    if (this.#options.apiKey) headers["ALTURA_API_KEY"] = this.#options.apiKey;
    let last = "";
    for (let attempt = 1; ; attempt++) {
      let waitMs = Math.min(250 * 2 ** (attempt - 1), this.#options.maxWaitMs);
      try {
        const response = await fetch(url, { headers, signal: AbortSignal.timeout(60_000) });
        const text = await response.text();
        if (!RETRIED(response.status))
          return { url, status: response.status, contentType: response.headers.get("content-type") ?? "", text };
        last = `answered ${response.status}`;
        const after = retryAfterMs(response.headers.get("retry-after"));
        if (after !== undefined) waitMs = Math.min(after, this.#options.maxWaitMs);
      } catch (error) {
        last = ((error as Error).cause as Error | undefined)?.message ?? (error as Error).message;
      }
      if (attempt >= this.#options.tries)
        throw new StartError(
          START_ERRORS.IMPORT_UPSTREAM,
          `the upstream could not be read: ${url}: ${last}, ${attempt} tries (a rerun resumes from the cache)`,
        );
      this.counts.retried++;
      await new Promise((resolve) => setTimeout(resolve, waitMs));
    }
  }

  #cached(url: string): LiveAnswer | undefined {
    const dir = this.#options.cacheDir;
    if (!dir) return undefined;
    try {
      const answer = JSON.parse(readFileSync(cacheFile(dir, url), "utf8")) as LiveAnswer;
      return answer.url === url ? answer : undefined;
    } catch {
      return undefined;
    }
  }

  #keep(answer: LiveAnswer): void {
    if (this.#options.cacheDir) keepAnswer(this.#options.cacheDir, answer);
  }

  async #slot(): Promise<void> {
    if (this.#inFlight < this.#options.concurrency) {
      this.#inFlight++;
      return;
    }
    await new Promise<void>((resolve) => this.#waiting.push(resolve));
  }

  #release(): void {
    const next = this.#waiting.shift();
    if (next) next();
    else this.#inFlight--;
  }
}

function cacheFile(dir: string, url: string): string {
  return join(dir, `${createHash("sha256").update(url).digest("hex").slice(0, 40)}.json`);
}

/** Keeps a definitive answer (2xx, 404) in the cache `dir`, where a fetcher with that cache reads it instead of the URL. */
export function keepAnswer(dir: string, answer: LiveAnswer): void {
  const file = cacheFile(dir, answer.url);
  // Whole or not at all: a run killed midway leaves no half-written answer to read back.
  writeFileSync(`${file}.part`, JSON.stringify(answer));
  renameSync(`${file}.part`, file);
}

/** Retry-After in milliseconds: delta-seconds or an HTTP date. */
export function retryAfterMs(header: string | null): number | undefined {
  if (!header) return undefined;
  if (/^\d+$/.test(header.trim())) return Number(header.trim()) * 1000;
  const date = Date.parse(header);
  return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
}
