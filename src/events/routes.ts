import type { Middleware } from "koa";
import { apiError, ERRORS } from "../core/errors.ts";
import { createWebhook, deleteWebhook, getWebhook, listWebhooks } from "../schemas/event-operations.ts";
import type { EVENT_OPERATIONS } from "../schemas/event-operations.ts";
import { handle } from "../routes/handle.ts";
import type { PushedEvents } from "./events.ts";
import { eventStream } from "./stream.ts";

type EventOperationId = (typeof EVENT_OPERATIONS)[number]["operationId"];

/** The handler of each control operation that pushes events. */
export function eventHandlers(events: PushedEvents): Record<EventOperationId, Middleware> {
  const { webhooks } = events;
  return {
    streamEvents: eventStream(events.feed, events.stream),
    createWebhook: handle(createWebhook, { answer: ({ body }) => webhooks.add(body) }),
    listWebhooks: handle(listWebhooks, { answer: async () => ({ webhooks: webhooks.list() }) }),
    getWebhook: handle(getWebhook, {
      answer: async ({ params }) => {
        const found = webhooks.get(params.id);
        if (!found) throw apiError(ERRORS.NOT_FOUND, { what: `Webhook '${params.id}'` });
        return found;
      },
    }),
    deleteWebhook: handle(deleteWebhook, {
      answer: async ({ params }) => {
        if (!webhooks.remove(params.id)) throw apiError(ERRORS.NOT_FOUND, { what: `Webhook '${params.id}'` });
        return { ok: true as const };
      },
    }),
  };
}
