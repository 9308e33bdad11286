import { Type, type Static } from "@sinclair/typebox";
import { Collection } from "./collection.ts";
import { Address, AddressInput, ChainId, Closed, Named, SafeInteger, StringEnum } from "./common.ts";
import { ItemEvent, MARKET_EVENTS, TRANSFER_EVENTS } from "./item-event.ts";

// Events pushed (`/_sim/events`, `/_sim/webhooks`): each item event as the history serves it,
// each collection as it is created, and what a revert or a reorg took back.

export const COLLECTION_CREATED = "CollectionCreated";
export const EVENT_KINDS = [...TRANSFER_EVENTS, ...MARKET_EVENTS, COLLECTION_CREATED] as const;
export type EventKind = (typeof EVENT_KINDS)[number];

const kindList = `(${EVENT_KINDS.join("|")})`;

/** Which events a listener wants; each filter left out lets every event through. */
const filterFields = {
  chainId: Type.Optional(ChainId),
  collection: Type.Optional(
    Type.String({ pattern: AddressInput.pattern, description: "a collection's address: its events and its creation" }),
  ),
  tokenId: Type.Optional(
    Type.Integer({
      ...SafeInteger,
      description: "an item's token id (with `collection`, one item); collections have none",
    }),
  ),
};

export const EventsQuery = Closed({
  ...filterFields,
  kinds: Type.Optional(
    Type.String({
      pattern: `^${kindList}(,${kindList})*$`,
      description: `comma-separated event kinds: ${EVENT_KINDS.join(", ")}`,
    }),
  ),
  lastEventId: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 300,
      description: "resume after this event id, as the `Last-Event-ID` header does (the header wins)",
    }),
  ),
});

/** An event a revert or a reorg took back: drop what has this id. */
export const RemovedEvent = Named("RemovedEvent", {
  id: Type.String(),
  event: StringEnum(EVENT_KINDS, { description: "the kind of the event taken back" }),
  chainId: ChainId,
  collection: Address,
  tokenId: Type.Optional(Type.Integer(SafeInteger)),
});
export type RemovedEvent = Static<typeof RemovedEvent>;

/** The `Last-Event-ID` a stream was asked to resume after is not in the buffer any more (or never was). */
export const GapEvent = Named("GapEvent", { lastEventId: Type.String(), message: Type.String() });
export type GapEvent = Static<typeof GapEvent>;

/** The `data` of a streamed event: by its `event:` name, an item event, a collection, a removal or a gap. */
export const StreamedEvent = Type.Union([ItemEvent, Collection, RemovedEvent, GapEvent], {
  $id: "StreamedEvent",
  description:
    "`event: <kind>` of an item (TransferSingle, …, Swapped): the item event as the history serves it; `event: " +
    "CollectionCreated`: the collection as `GET /api/v2/collection/:address` serves it; `event: removed`: an event " +
    "taken back; `event: gap`: events may have been missed",
});

export const WebhookBody = Closed({
  url: Type.String({
    minLength: 1,
    maxLength: 2000,
    description: "http(s) URL; a loopback host unless `--webhook-hosts` allows another",
  }),
  secret: Type.Optional(
    Type.String({
      pattern: "^whsec_[A-Za-z0-9+/]{32,88}={0,2}$",
      description: "`whsec_` and the base64 of 24 to 64 random bytes; made for you when left out",
    }),
  ),
  ...filterFields,
  kinds: Type.Optional(Type.Array(StringEnum(EVENT_KINDS), { minItems: 1, uniqueItems: true })),
});
export type WebhookBody = Static<typeof WebhookBody>;

const DeliveryStats = Closed({
  pending: Type.Integer({ minimum: 0, description: "messages waiting, the one in flight included" }),
  delivered: Type.Integer({ minimum: 0 }),
  failed: Type.Integer({ minimum: 0, description: "given up after every attempt" }),
  dropped: Type.Integer({ minimum: 0, description: "pushed out of a full queue before any attempt" }),
});

const webhookFields = {
  id: Type.String(),
  url: Type.String(),
  chainId: Type.Optional(ChainId),
  collection: Type.Optional(Address),
  tokenId: Type.Optional(Type.Integer(SafeInteger)),
  kinds: Type.Optional(Type.Array(StringEnum(EVENT_KINDS))),
  createdAt: Type.String({ format: "date-time" }),
  stats: DeliveryStats,
};

export const Webhook = Named("Webhook", webhookFields);
export type Webhook = Static<typeof Webhook>;

export const CreatedWebhook = Named("CreatedWebhook", {
  ...webhookFields,
  secret: Type.String({ description: "verifies the `webhook-signature` of each delivery" }),
});
export type CreatedWebhook = Static<typeof CreatedWebhook>;

export const WebhookList = Named("WebhookList", { webhooks: Type.Array(Webhook) });

export const Delivery = Closed({
  messageId: Type.String({ description: "the `webhook-id` header: the same on every attempt" }),
  type: Type.String({ description: "the event's kind, `CollectionCreated` or `removed`" }),
  eventId: Type.String(),
  status: StringEnum(["pending", "delivered", "failed", "dropped"] as const),
  attempts: Type.Integer({ minimum: 0 }),
  responseStatus: Type.Optional(Type.Integer({ description: "the receiver's last HTTP status" })),
  error: Type.Optional(Type.String({ description: "why the last attempt failed, when it got no status" })),
  latencyMs: Type.Optional(Type.Number({ minimum: 0, description: "the last attempt's round trip" })),
  queuedAt: Type.String({ format: "date-time" }),
  lastAttemptAt: Type.Optional(Type.String({ format: "date-time" })),
});
export type Delivery = Static<typeof Delivery>;

export const WebhookDetail = Named("WebhookDetail", {
  ...webhookFields,
  deliveries: Type.Array(Delivery, { description: "the newest deliveries first" }),
});
export type WebhookDetail = Static<typeof WebhookDetail>;
