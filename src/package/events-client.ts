// Events pushed by a running simulator, for a test or a script:
//
//   for await (const e of sim.events({ collection, timeout: 5_000 })) {
//     if (e.type === "TransferSingle") console.log(e.data.to, e.data.amount);
//   }
//
// The stream is GET /_sim/events (Server-Sent Events); a dropped connection is resumed with
// Last-Event-ID. Leaving the loop (break, return, an AbortSignal) closes the connection; a timeout
// throws EventTimeoutError naming what came meanwhile. To act only once it listens:
// `const events = sim.events(); await events.ready;`, act, then loop.
import { createParser, type EventSourceMessage } from "eventsource-parser";
import type { ErrorBody } from "../schemas/error.ts";
import type { EventKind } from "../schemas/events.ts";
import { ControlError, EventTimeoutError } from "./errors.ts";
import type { SimEvent } from "./sim-event.ts";

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
  /**
   * Milliseconds from the call after which the loop throws EventTimeoutError (naming the events it yielded), rather
   * than wait for the test runner's own limit; default none.
   */
  timeout?: number;
}

export type { SimEvent };

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
  { signal, lastEventId, timeout, ...filter }: EventsOptions = {},
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
    if (queue.length > 0) {
      const value = queue.shift()!;
      if (yielded.push(value) > SEEN_KEPT) yielded.shift();
      resolve({ value, done: false });
    } else if (!ended) return;
    else if (failure !== undefined) reject(failure);
    else resolve({ value: undefined, done: true });
    waiting = undefined;
  };
  /** What the loop was given, for a timeout's message: the last few hundred. */
  const yielded: SimEvent[] = [];
  const end = (error?: unknown) => {
    if (ended) return;
    ended = true;
    failure = error;
    clearTimeout(timer);
    controller.abort();
    refused(error ?? new Error("the event stream ended before it opened"));
    settle();
  };
  const timer =
    timeout === undefined
      ? undefined
      : setTimeout(() => {
          queue.length = 0;
          end(
            new EventTimeoutError(
              `sim.events(${describeFilter(filter)}): the loop was still waiting after ${timeout} ms; ` +
                seenSoFar(yielded, "it was given"),
              [...yielded],
            ),
          );
        }, timeout);
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

/** Events a timeout's message names at most (the newest). */
export const SEEN_KEPT = 200;

/** `collection 0x…, kinds Swapped`: the filters given, for a message. */
export function describeFilter(filter: EventsFilter): string {
  const given = Object.entries(filter).filter(([, value]) => value !== undefined);
  if (given.length === 0) return "";
  return `{ ${given.map(([name, value]) => `${name}: ${Array.isArray(value) ? value.join(",") : String(value)}`).join(", ")} }`;
}

/** `saw 2: Swapped Swapped-3-0x…-1 (chain 56, 0x…, token 4), …`, the newest last, for a message. */
export function seenSoFar(seen: SimEvent[], verb: string): string {
  if (seen.length === 0) return `${verb} no event.`;
  const shown = seen.slice(-10).map(eventLine);
  const more = seen.length > shown.length ? `… and ${seen.length - shown.length} before them, ` : "";
  return `${verb} ${seen.length}: ${more}${shown.join("; ")}.`;
}

function eventLine({ type, id, data }: SimEvent): string {
  const where = data as { chainId?: number; itemCollection?: string; collection?: string; tokenId?: number };
  const parts = [
    where.chainId === undefined ? undefined : `chain ${where.chainId}`,
    where.itemCollection ?? where.collection,
    where.tokenId === undefined ? undefined : `token ${where.tokenId}`,
  ].filter((part) => part !== undefined);
  return `${type}${id ? ` ${id}` : ""}${parts.length > 0 ? ` (${parts.join(", ")})` : ""}`;
}

function eventOf(message: EventSourceMessage): SimEvent {
  const data = JSON.parse(message.data) as SimEvent["data"];
  return { type: message.event ?? "message", ...(message.id ? { id: message.id } : {}), data } as SimEvent;
}
