// Events pushed by a running simulator, for a test or a script:
//
//   for await (const e of sim.events({ collection })) {
//     if (e.type === "TransferSingle") console.log(e.data.to, e.data.amount);
//   }
//
// The stream is GET /_sim/events (Server-Sent Events); a dropped connection is resumed with
// Last-Event-ID. Leaving the loop (break, return, an AbortSignal) closes the connection.
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

/** The events of the simulator whose control API is at `base` (…/_sim), as an async iterator. */
export async function* streamEvents(
  base: string,
  { signal, lastEventId: startAfter, ...filter }: EventsOptions = {},
  token?: string,
): AsyncGenerator<SimEvent, void, undefined> {
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(filter))
    if (value !== undefined) query.set(name, Array.isArray(value) ? value.join(",") : String(value));
  let lastEventId = startAfter;
  let retryMs = 1000;
  for (let connected = false; ; connected = true) {
    const headers: Record<string, string> = {
      accept: "text/event-stream",
      ...(lastEventId ? { "last-event-id": lastEventId } : {}),
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    };
    let response: Response;
    try {
      response = await fetch(`${base}/events?${query}`, { headers, ...(signal ? { signal } : {}) });
    } catch (error) {
      // Once the stream was open, a simulator that stopped ends the iteration; one never reached is an error.
      if (signal?.aborted || connected) return;
      throw error;
    }
    // A simulator shutting down answers 503 to the reconnection: the stream has ended.
    if (connected && response.status === 503) return;
    if (!response.ok) throw new ControlError(response.status, (await response.json()) as ErrorBody);
    const messages: EventSourceMessage[] = [];
    const parser = createParser({
      onEvent: (message) => messages.push(message),
      onRetry: (ms) => (retryMs = ms),
    });
    const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        parser.feed(value);
        for (let message = messages.shift(); message; message = messages.shift()) {
          if (message.id) lastEventId = message.id;
          yield eventOf(message);
        }
      }
    } catch {
      if (signal?.aborted) return;
    } finally {
      await reader.cancel().catch(() => undefined);
    }
    await new Promise((resolve) => setTimeout(resolve, retryMs));
    if (signal?.aborted) return;
  }
}

function eventOf(message: EventSourceMessage): SimEvent {
  const data = JSON.parse(message.data) as SimEvent["data"];
  return { type: message.event ?? "message", ...(message.id ? { id: message.id } : {}), data } as SimEvent;
}

/** The webhook operations of the control API, for the control client. */
export interface WebhookMethods {
  /** Deliveries of the events passing the filters to `url`, signed with `secret` (made when left out: read it from the answer). */
  addWebhook(webhook: WebhookBody): Promise<CreatedWebhook>;
  webhooks(): Promise<Webhook[]>;
  /** One webhook with its delivery log. */
  webhook(id: string): Promise<WebhookDetail>;
  removeWebhook(id: string): Promise<void>;
  /** The events pushed (GET /_sim/events), as an async iterator. */
  events(options?: EventsOptions): AsyncGenerator<SimEvent, void, undefined>;
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
