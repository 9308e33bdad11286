// One event awaited, with a deadline, for a test:
//
//   const sold = sim.waitForEvent({ collection, kinds: ["Swapped"] }, { timeout: 5_000 });
//   await sold.ready;          // listening: nothing the next line causes is missed
//   await buy();
//   const sale = await sold;   // typed as a Swapped event; or EventTimeoutError naming what came meanwhile
import type { EventKind } from "../schemas/events.ts";
import { EventTimeoutError } from "./errors.ts";
import {
  describeFilter,
  SEEN_KEPT,
  seenSoFar,
  type EventsFilter,
  type EventStream,
  type SimEvent,
} from "./events-client.ts";

/** Which event ends the wait: the stream's filters, and optionally a test of the event itself. */
export interface EventMatch<Kind extends EventKind = EventKind> extends EventsFilter {
  kinds?: Kind[];
  /** The event must also pass this (`(e) => e.data.to === buyer`). */
  where?: (event: SimEventOf<Kind>) => boolean;
}

export interface WaitOptions {
  /** Milliseconds from the call; default 10,000. */
  timeout?: number;
  /** Gives up at once (rejecting with the signal's reason). */
  signal?: AbortSignal;
}

/** The pushed event of one of these kinds (a collection for CollectionCreated, an item event otherwise). */
export type SimEventOf<Kind extends EventKind> = Extract<SimEvent, { type: Kind }>;

/** The event awaited; `ready` resolves once the stream listens (act after it, and the event cannot be missed). */
export interface EventWait<E = SimEvent> extends Promise<E> {
  ready: Promise<void>;
}

const DEFAULT_WAIT_MS = 10_000;

/** Waits on `open`'s stream for the first event that `match` accepts; rejects after the timeout with what it saw. */
export function waitForEvent<Kind extends EventKind = EventKind>(
  open: (filter: EventsFilter & { signal: AbortSignal }) => EventStream,
  { where, ...filter }: EventMatch<Kind>,
  { timeout = DEFAULT_WAIT_MS, signal }: WaitOptions = {},
): EventWait<SimEventOf<Kind>> {
  const controller = new AbortController();
  const stream = open({ ...filter, signal: controller.signal });
  const seen: SimEvent[] = [];
  // A removal or a gap passes the stream's filters but is not an event of a kind.
  const accepts = (event: SimEvent): event is SimEventOf<Kind> =>
    event.type !== "removed" &&
    event.type !== "gap" &&
    (filter.kinds === undefined || (filter.kinds as string[]).includes(event.type)) &&
    (where === undefined || where(event as SimEventOf<Kind>));
  const found = new Promise<SimEventOf<Kind>>((resolve, reject) => {
    const fail = (error: unknown) => {
      clearTimeout(timer);
      controller.abort();
      reject(error);
    };
    const timer = setTimeout(
      () =>
        fail(
          new EventTimeoutError(
            `sim.waitForEvent(${describeFilter(filter)}${where ? " and its where()" : ""}): no event matched within ` +
              `${timeout} ms; ${seenSoFar(seen, "saw")}`,
            seen,
          ),
        ),
      timeout,
    );
    if (signal?.aborted) fail(signal.reason);
    signal?.addEventListener("abort", () => fail(signal.reason), { once: true });
    void (async () => {
      try {
        for await (const event of stream) {
          if (accepts(event)) {
            clearTimeout(timer);
            resolve(event);
            return;
          }
          if (seen.push(event) > SEEN_KEPT) seen.shift();
        }
        fail(
          new Error(`sim.waitForEvent(${describeFilter(filter)}): the simulator stopped; ${seenSoFar(seen, "saw")}`),
        );
      } catch (error) {
        fail(error);
      }
    })();
  });
  return Object.assign(found, { ready: stream.ready });
}
