import { ERRORS } from "../core/errors.ts";
import { controlOperations } from "./operations.ts";
import { CreatedWebhook, EventsQuery, StreamedEvent, WebhookBody, WebhookDetail, WebhookList } from "./events.ts";
import { Done, IdParams } from "./control.ts";

// The control operations that push events: a Server-Sent Events stream, and signed webhooks.

export const EVENTS = controlOperations({
  streamEvents: {
    method: "get",
    path: "/_sim/events",
    summary: "Events as they are indexed (Server-Sent Events)",
    description:
      "A `text/event-stream` of every item event as it is indexed (`event:` its kind, `id:` its id, `data:` the JSON " +
      "the item's history serves for it), " +
      "every collection as it is created (`event: CollectionCreated`, the JSON `GET /api/v2/collection/:address` " +
      "serves), and every event a revert or a reorg took back " +
      "(`event: removed`, `data:` its id, kind, chain, collection and token id: drop it). Filters: `chainId`, " +
      "`collection`, `tokenId`, `kinds` (a removal passes as the kind it takes back). " +
      "`Last-Event-ID` (or `lastEventId`) resumes after that event from a buffer of the last events (ids repeat when a " +
      "chain's blocks are replaced: it resumes after the oldest buffered event with that id, so an event may come " +
      "twice, never not at all); " +
      "an id no longer in the buffer gets `event: gap` first, then the stream goes on from now: read what you show " +
      "again. A comment line is a heartbeat. " +
      "A client that does not read is cut off once a megabyte waits for it; it resumes with `Last-Event-ID`.",
    query: EventsQuery,
    response: StreamedEvent,
    media: "text/event-stream",
    errors: [ERRORS.INVALID_REQUEST],
  },
  createWebhook: {
    method: "post",
    path: "/_sim/webhooks",
    summary: "Add a webhook",
    description:
      "The events `GET /_sim/events` streams (with the same filters) are POSTed to `url` as the Standard Webhooks spec " +
      "has them: `{ type, timestamp, data }` signed with `secret` " +
      "(`webhook-id`, `webhook-timestamp`, `webhook-signature: v1,<base64 HMAC-SHA256>`). At least once, in order, " +
      "retried with exponential backoff on anything but a 2xx " +
      "(a redirect is not followed); each webhook's queue is bounded (the oldest waiting message is dropped, and " +
      "counted, when it is full), so a receiver that is down never grows memory or slows the API. " +
      "The URL's host must be loopback (a name must resolve only to loopback addresses, checked at every delivery) " +
      "unless `--webhook-hosts` allows it. Webhooks live as long as the simulator runs (they are not kept by " +
      "`--state`, nor undone by a revert or a reset).",
    body: WebhookBody,
    response: CreatedWebhook,
    errors: [ERRORS.INVALID_REQUEST, ERRORS.WEBHOOK_URL_REFUSED, ERRORS.CONFLICT],
  },
  listWebhooks: {
    method: "get",
    path: "/_sim/webhooks",
    summary: "List webhooks",
    description: "Every webhook with its filters and delivery counts (not its secret).",
    response: WebhookList,
    errors: [],
  },
  getWebhook: {
    method: "get",
    path: "/_sim/webhooks/:id",
    summary: "A webhook and its delivery log",
    description:
      "One webhook with its last 100 deliveries, newest first: status (pending, delivered, failed, dropped), attempts, " +
      "the receiver's last status or error, and the last attempt's latency.",
    params: IdParams,
    response: WebhookDetail,
    errors: [ERRORS.NOT_FOUND],
  },
  deleteWebhook: {
    method: "delete",
    path: "/_sim/webhooks/:id",
    summary: "Remove a webhook",
    description: "Stops its deliveries at once; messages still waiting are dropped.",
    params: IdParams,
    response: Done,
    errors: [ERRORS.NOT_FOUND],
  },
});
export const { streamEvents, createWebhook, listWebhooks, getWebhook, deleteWebhook } = EVENTS;
