import type { Middleware } from "koa";
import { found } from "../core/errors.ts";
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
      answer: async ({ params }) => found(webhooks.get(params.id), `Webhook '${params.id}'`),
    }),
    deleteWebhook: handle(deleteWebhook, {
      answer: async ({ params }) =>
        found(webhooks.remove(params.id) && { ok: true as const }, `Webhook '${params.id}'`),
    }),
  };
}
