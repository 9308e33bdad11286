import type { Middleware } from "koa";
import { EventsQuery, type GapEvent } from "../schemas/events.ts";
import { requestValidator } from "../schemas/validate.ts";
import { type FeedEntry, type EventFeed, eventFilter } from "./feed.ts";
import type { StreamOptions } from "../core/event-tuning.ts";

export const STREAM_DEFAULTS: StreamOptions = { heartbeatMs: 15_000, maxUnreadBytes: 1 << 20 };

/** One event as Server-Sent Events write it (`data` is one line of JSON). */
export const frameOf = (type: string, id: string | undefined, data: string) =>
  `event: ${type}\n${id === undefined ? "" : `id: ${id}\n`}data: ${data}\n\n`;

const entryFrame = (entry: FeedEntry) => frameOf(entry.type, entry.id, entry.data);

/** GET /_sim/events: the feed as Server-Sent Events, filtered, resumed after `Last-Event-ID`, with heartbeats. */
export function eventStream(feed: EventFeed, options: StreamOptions = STREAM_DEFAULTS): Middleware {
  const checkQuery = requestValidator(EventsQuery, "query");
  return async (ctx) => {
    const query = checkQuery(ctx.query);
    const filter = eventFilter(query);
    const lastEventId = ctx.get("last-event-id") || query.lastEventId;
    const res = ctx.res;
    ctx.status = 200;
    ctx.respond = false;
    res.writeHead(200, {
      "content-type": "text/event-stream; charset=utf-8",
      "cache-control": "no-cache, no-transform",
      "x-accel-buffering": "no",
    });
    let open = true;
    const write = (text: string) => {
      if (!open) return;
      res.write(text);
      if (res.writableLength > options.maxUnreadBytes) res.destroy();
    };
    write("retry: 1000\n: connected\n\n");
    if (lastEventId) {
      const resumed = feed.after(lastEventId, filter);
      if ("gap" in resumed) {
        const gap: GapEvent = {
          lastEventId,
          message:
            `event '${lastEventId}' is not among the last events kept: events may have been missed; read what you ` +
            `show again`,
        };
        write(frameOf("gap", undefined, JSON.stringify(gap)));
      } else for (const entry of resumed.entries) write(entryFrame(entry));
    }
    const stop = feed.listen({ filter, push: (entry) => write(entryFrame(entry)), end: () => res.end() });
    const heartbeat = setInterval(() => write(`: heartbeat ${new Date().toISOString()}\n\n`), options.heartbeatMs);
    heartbeat.unref();
    res.once("close", () => {
      open = false;
      clearInterval(heartbeat);
      stop();
    });
  };
}
