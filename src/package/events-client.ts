// Events pushed by a running simulator, for a test or a script:
//
//   for await (const e of sim.events({ collection })) {
//     if (e.type === "TransferSingle") console.log(e.data.to, e.data.amount);
//   }
//
// The stream is GET /_sim/events (Server-Sent Events); a dropped connection is resumed with
// Last-Event-ID. Leaving the loop (break, return, an AbortSignal) closes the connection. To act
// only once it listens: `const events = sim.events(); await events.ready;`, act, then loop.
import type { Static } from "@sinclair/typebox";
import { createParser, type EventSourceMessage } from "eventsource-parser";
import type { Collection } from "../schemas/collection.ts";
import type { ErrorBody } from "../schemas/error.ts";
import type {
  CreatedWebhook,
  EventKind,
  GapEvent,
  RemovedEvent,
  WebhookBody,
  WebhookDetail,
} from "../schemas/events.ts";
import type { Webhook } from "../schemas/events.ts";
import type { ItemEvent } from "../schemas/item-event.ts";

/** Which events to receive; each left out lets every event through. */
export interface EventsFilter {
  chainId?: number;
  collection?: string;
  tokenId?: number;
  kinds?: EventKind[];
}

export interface EventsOptions extends EventsFilter {
  /** Start after this event (as a reconnecting client does); default: from now. */
  lastEventId?: string;
  /** Ends the iteration when aborted. */
  signal?: AbortSignal;
}

/** The item event of one kind (the schema's branches each cover several kinds). */
type ItemEventOf<Kind, Branch = ItemEvent> = Branch extends { event: infer Kinds }
  ? Kind extends Kinds
    ? Branch & { event: Kind }
    : never
  : never;

/** One pushed event: `type` tells what `data` is (an item event of that kind, a collection, a removal, a gap). */
export type SimEvent =
  | { [Kind in ItemEvent["event"]]: { type: Kind; id: string; data: ItemEventOf<Kind> } }[ItemEvent["event"]]
  | { type: "CollectionCreated"; id: string; data: Static<typeof Collection> }
  | { type: "removed"; id: string; data: RemovedEvent }
  | { type: "gap"; id?: undefined; data: GapEvent };

/** An answer of the control API other than 200, with its JSON error body. */
export class ControlError extends Error {
  readonly status: number;
  readonly body: ErrorBody;

  constructor(status: number, body: ErrorBody) {
    super(`${status} ${body.error}: ${body.errors.join("; ")}`);
    this.status = status;
    this.body = body;
  }
}

/** The events pushed, as an async iterator that is listening from the moment it is made. */
export interface EventStream extends AsyncIterableIterator<SimEvent, void, undefined> {
  /** Resolves once the stream is open: every event indexed from then on is yielded (rejects if it cannot open). */
  ready: Promise<void>;
}

/**
 * The events of the simulator whose control API is at `base` (…/_sim). The connection opens at
 * once, so `const events = sim.events(); await events.ready; <act>; for await (const e of events)`
 * misses nothing the action causes; events wait in memory until they are read.
 */
export function streamEvents(
  base: string,
  { signal, lastEventId, ...filter }: EventsOptions = {},
  token?: string,
): EventStream {
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(filter))
    if (value !== undefined) query.set(name, Array.isArray(value) ? value.join(",") : String(value));
  const controller = new AbortController();
  signal?.addEventListener("abort", () => controller.abort(), { once: true });
  if (signal?.aborted) controller.abort();
  const queue: SimEvent[] = [];
  let ended = false;
  let failure: unknown;
  let waiting:
    { resolve: (result: IteratorResult<SimEvent, void>) => void; reject: (error: unknown) => void } | undefined;
  let opened: () => void = () => undefined;
  let refused: (error: unknown) => void = () => undefined;
  const ready = new Promise<void>((resolve, reject) => ((opened = resolve), (refused = reject)));
  ready.catch(() => undefined);
  const settle = () => {
    if (!waiting) return;
    const { resolve, reject } = waiting;
    if (queue.length > 0) resolve({ value: queue.shift()!, done: false });
    else if (!ended) return;
    else if (failure !== undefined) reject(failure);
    else resolve({ value: undefined, done: true });
    waiting = undefined;
  };
  const end = (error?: unknown) => {
    ended = true;
    failure = error;
    refused(error ?? new Error("the event stream ended before it opened"));
    settle();
  };
  void follow(`${base}/events?${query}`, lastEventId, token, controller.signal, {
    opened,
    heard: (event) => {
      if (ended) return;
      queue.push(event);
      settle();
    },
  }).then(() => end(), end);
  const stream: EventStream = {
    ready,
    next: () =>
      new Promise((resolve, reject) => {
        waiting = { resolve, reject };
        settle();
      }),
    return: async () => {
      controller.abort();
      queue.length = 0;
      end();
      return { value: undefined, done: true };
    },
    [Symbol.asyncIterator]: () => stream,
  };
  return stream;
}

/**
 * Reads the stream, and opens it again after a dropped connection (with Last-Event-ID), until it is aborted or the
 * simulator is gone.
 */
async function follow(
  url: string,
  startAfter: string | undefined,
  token: string | undefined,
  signal: AbortSignal,
  { opened, heard }: { opened: () => void; heard: (event: SimEvent) => void },
): Promise<void> {
  let lastEventId = startAfter;
  let retryMs = 1000;
  for (let connected = false; !signal.aborted; connected = true) {
    const headers: Record<string, string> = {
      accept: "text/event-stream",
      ...(lastEventId ? { "last-event-id": lastEventId } : {}),
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    };
    let response: Response;
    try {
      response = await fetch(url, { headers, signal });
    } catch (error) {
      // Once the stream was open, a simulator that stopped ends the iteration; one never reached is an error.
      if (signal.aborted || connected) return;
      throw error;
    }
    // A simulator shutting down answers 503 to the reconnection: the stream has ended.
    if (connected && response.status === 503) return;
    if (!response.ok) throw new ControlError(response.status, (await response.json()) as ErrorBody);
    opened();
    const parser = createParser({
      onEvent: (message) => {
        if (message.id) lastEventId = message.id;
        heard(eventOf(message));
      },
      onRetry: (ms) => (retryMs = ms),
    });
    const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        parser.feed(value);
      }
    } catch {
      if (signal.aborted) return;
    } finally {
      await reader.cancel().catch(() => undefined);
    }
    await new Promise((resolve) => setTimeout(resolve, retryMs));
  }
}

function eventOf(message: EventSourceMessage): SimEvent {
  const data = JSON.parse(message.data) as SimEvent["data"];
  return { type: message.event ?? "message", ...(message.id ? { id: message.id } : {}), data } as SimEvent;
}

/** The webhook operations of the control API, for the control client. */
export interface WebhookMethods {
  /**
   * Deliveries of the events passing the filters to `url`, signed with `secret` (made when left out: read it from the
   * answer).
   */
  addWebhook(webhook: WebhookBody): Promise<CreatedWebhook>;
  webhooks(): Promise<Webhook[]>;
  /** One webhook with its delivery log. */
  webhook(id: string): Promise<WebhookDetail>;
  removeWebhook(id: string): Promise<void>;
  /** The events pushed (GET /_sim/events), as an async iterator listening from the moment it is made. */
  events(options?: EventsOptions): EventStream;
}

type Send = <T>(method: string, path: string, body?: unknown) => Promise<T>;

export function webhookMethods(send: Send, base: string, token?: string): WebhookMethods {
  return {
    addWebhook: (webhook) => send("POST", "/webhooks", webhook),
    webhooks: async () => (await send<{ webhooks: Webhook[] }>("GET", "/webhooks")).webhooks,
    webhook: (id) => send("GET", `/webhooks/${encodeURIComponent(id)}`),
    removeWebhook: async (id) => void (await send("DELETE", `/webhooks/${encodeURIComponent(id)}`)),
    events: (options) => streamEvents(base, options, token),
  };
}
