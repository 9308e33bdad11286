import { randomUUID } from "node:crypto";
import { Agent as HttpAgent, request as httpRequest } from "node:http";
import { Agent as HttpsAgent, request as httpsRequest } from "node:https";
import type { LookupFunction } from "node:net";
import type { Delivery, Webhook } from "../schemas/events.ts";
import type { FeedEntry } from "./feed.ts";
import type { DeliveryOptions } from "../core/event-tuning.ts";

/** Seven attempts over about a minute; a thousand messages waiting at most; a hundred kept in the log. */
export const DELIVERY_DEFAULTS: DeliveryOptions = {
  attempts: 7,
  backoffMs: 1_000,
  maxBackoffMs: 60_000,
  timeoutMs: 10_000,
  queueLimit: 1_000,
  logLimit: 100,
};

/** Sends one attempt of a message (signed anew each time). */
export type Send = (entry: FeedEntry, messageId: string) => Promise<Attempt>;

/**
 * One webhook's deliveries: at least once and in order, one at a time, each retried with
 * exponential backoff until a 2xx or its last attempt. The queue is bounded, so a receiver that
 * is down holds at most `queueLimit` messages however many events come; adding one never waits.
 */
export class DeliveryQueue {
  readonly #send: Send;
  readonly #options: DeliveryOptions;
  readonly #queue: { entry: FeedEntry; record: Delivery }[] = [];
  readonly #log: Delivery[] = [];
  readonly #counts = { delivered: 0, failed: 0, dropped: 0 };
  #running = false;
  #closed = false;
  #wake: (() => void) | undefined;

  constructor(send: Send, options: DeliveryOptions) {
    this.#send = send;
    this.#options = options;
  }

  enqueue(entry: FeedEntry): void {
    if (this.#closed) return;
    const record: Delivery = {
      messageId: `msg_${randomUUID().replaceAll("-", "")}`,
      type: entry.type,
      eventId: entry.id,
      status: "pending",
      attempts: 0,
      queuedAt: new Date().toISOString(),
    };
    if (this.#queue.length >= this.#options.queueLimit) {
      // The message being delivered stays; the oldest of those still waiting makes room.
      const [dropped] = this.#queue.splice(this.#running ? 1 : 0, 1);
      if (dropped) {
        dropped.record.status = "dropped";
        this.#counts.dropped += 1;
      }
    }
    this.#queue.push({ entry, record });
    this.#log.push(record);
    if (this.#log.length > this.#options.logLimit) this.#log.splice(0, this.#log.length - this.#options.logLimit);
    if (!this.#running) void this.#run();
  }

  get stats(): Webhook["stats"] {
    return { pending: this.#queue.length, ...this.#counts };
  }

  /** The newest deliveries first. */
  log(): Delivery[] {
    return this.#log.map((record) => ({ ...record })).reverse();
  }

  /** Stops at once: nothing more is sent, a wait between attempts ends, what waits is dropped. */
  close(): void {
    this.#closed = true;
    this.#wake?.();
    for (const { record } of this.#queue) if (record.status === "pending") record.status = "dropped";
    this.#queue.length = 0;
  }

  async #run(): Promise<void> {
    this.#running = true;
    try {
      while (!this.#closed && this.#queue.length > 0) {
        const message = this.#queue[0]!;
        await this.#deliver(message);
        if (this.#queue[0] === message) this.#queue.shift();
      }
    } finally {
      this.#running = false;
    }
  }

  async #deliver({ entry, record }: { entry: FeedEntry; record: Delivery }): Promise<void> {
    const { attempts, backoffMs, maxBackoffMs } = this.#options;
    for (let attempt = 1; attempt <= attempts; attempt++) {
      if (attempt > 1) await this.#wait(Math.min(maxBackoffMs, backoffMs * 2 ** (attempt - 2)));
      if (this.#closed) return;
      const result = await this.#send(entry, record.messageId);
      record.attempts = attempt;
      record.lastAttemptAt = new Date().toISOString();
      record.latencyMs = result.latencyMs;
      if (result.status === undefined) delete record.responseStatus;
      else record.responseStatus = result.status;
      if (result.error === undefined) delete record.error;
      else record.error = result.error;
      if (result.status !== undefined && result.status >= 200 && result.status < 300) {
        record.status = "delivered";
        this.#counts.delivered += 1;
        return;
      }
    }
    if (this.#closed) return;
    record.status = "failed";
    this.#counts.failed += 1;
  }

  #wait(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, ms).unref();
      this.#wake = () => (clearTimeout(timer), resolve());
    });
  }
}

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
