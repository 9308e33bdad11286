import {
  AdvanceTimeBody,
  ApiKeyResponse,
  CreateApiKeyBody,
  CreateCollectionBody,
  CreatedCollection,
  Done,
  MinterBody,
  MinterParams,
  MinterQuery,
  MinterResponse,
  IdParams,
  LoggedRequestDetail,
  RequestLog,
  RequestLogQuery,
  RequestParams,
  SnapshotResponse,
  TimeResponse,
} from "./control.ts";
import { CollectionItem, CollectionItems, CollectionVolume } from "./collection-reads.ts";
import { CollectionParams } from "./collection.ts";
import { ItemEventsParams } from "./item-event.ts";
import { StateResponse } from "./state.ts";
import { ERRORS } from "../core/errors.ts";
import { controlOperations, NODE_REFUSED } from "./operations.ts";
import { Fault, FaultBody, FaultList } from "./fault-rule.ts";
import { CreatedWebhook, EventsQuery, StreamedEvent, WebhookBody, WebhookDetail, WebhookList } from "./events.ts";
import { Fragment } from "./fragment.ts";
import { ArrangeResponse, WorldResponse } from "./world.ts";

// A chain may be a node the simulator did not start (--rpc-url): it can be down, or lack what an action needs.
const DOWN = [ERRORS.CHAIN_DOWN, ERRORS.CHAIN_REPLACED];
/** What a control write that is a transaction may answer: dropped, refused by a node, or late (as a mint waits). */
const WRITE = [ERRORS.WRITE_DROPPED, ...NODE_REFUSED, ERRORS.CHAIN_UNAVAILABLE, ERRORS.WRITE_PENDING];
/** What granting or revoking the minter role may answer: the owner's transaction refused by the contract, too. */
const MINTER_CHANGE = [
  ERRORS.INVALID_REQUEST,
  ERRORS.NOT_FOUND,
  ERRORS.CONFLICT,
  ERRORS.CONTRACT_RULE,
  ...WRITE,
  ...DOWN,
  ERRORS.STORAGE_FULL,
];

/** A fragment may be as large as a world. */
const FRAGMENT_BODY_LIMIT = "10mb";

const CONTROL = controlOperations({
  getState: {
    method: "get",
    path: "/_sim/state",
    summary: "What --state keeps",
    description:
      "Whether a journal (--state) keeps every acknowledged change, where, and whether it takes writes now: while its " +
      "disk refuses them (full, read-only, failing) writes answer 507 STORAGE_FULL and reads still answer; they are " +
      "taken again as soon as the disk takes them. On a node signed for with --keys, also how much each wallet that " +
      "signs an API key's writes holds there (its pool's wallets too), and which are low.",
    response: StateResponse,
    errors: [],
  },
  getTime: {
    method: "get",
    path: "/_sim/time",
    summary: "Each chain's head time",
    description: "The head block of every chain: number, unix time and ISO time. Volumes are measured against it.",
    response: TimeResponse,
    errors: DOWN,
  },
  advanceTime: {
    method: "post",
    path: "/_sim/time/advance",
    summary: "Move time forward",
    description:
      "Mines a block `seconds` after the head on every chain (or on `chainId`'s). Volumes and every time-derived field " +
      "follow at once.",
    body: AdvanceTimeBody,
    response: TimeResponse,
    errors: [ERRORS.INVALID_REQUEST, ERRORS.NOT_FOUND, ERRORS.NODE_CANNOT, ...DOWN, ERRORS.STORAGE_FULL],
  },
  takeSnapshot: {
    method: "post",
    path: "/_sim/snapshots",
    summary: "Take a snapshot",
    description:
      "Remembers every chain, the read models, the metadata and the API keys together; revert to it as often as you " +
      "like. Ids count from 1, and again from 1 after a reset; at most 1,000 snapshots are kept.",
    response: SnapshotResponse,
    errors: [ERRORS.CONFLICT, ERRORS.NODE_CANNOT, ...DOWN, ERRORS.STORAGE_FULL],
  },
  revertSnapshot: {
    method: "post",
    path: "/_sim/snapshots/:id/revert",
    summary: "Go back to a snapshot",
    description:
      "Every chain, the read models, metadata and API keys return to the snapshot; snapshots taken after it are gone. " +
      "A read right after answers from the restored state.",
    params: IdParams,
    response: Done,
    errors: [ERRORS.NOT_FOUND, ERRORS.CONFLICT, ERRORS.NODE_CANNOT, ...DOWN, ERRORS.STORAGE_FULL],
  },
  resetWorld: {
    method: "post",
    path: "/_sim/reset",
    summary: "Back to the world as loaded",
    description:
      "Returns to the world as it was when the simulator became ready, drops every snapshot (ids count from 1 again) " +
      "and clears the journal (`--state`).",
    response: Done,
    errors: [ERRORS.CONFLICT, ERRORS.NODE_CANNOT, ...DOWN, ERRORS.STORAGE_FULL],
  },
  // The world as a whole: what it names (GET /_sim/world), and fragments of the scenario format applied to it.
  getWorld: {
    method: "get",
    path: "/_sim/world",
    summary: "The world by handle",
    description:
      "Every account the world names (its scenario's, those fragments and the control API added) with its address " +
      "and API key, each chain's core contracts (factory, marketplace, stablecoin), and its collections, items and " +
      "listings by handle: the names a fragment may use.",
    response: WorldResponse,
    errors: DOWN,
  },
  applyScenario: {
    method: "post",
    path: "/_sim/scenario",
    summary: "Apply a scenario fragment",
    description:
      "Applies a fragment in the scenario format (`accounts`, `apiKeys`, `collections`, `items`, `timeline`, every " +
      "action of the format) to the running world, all or nothing. " +
      "Handles name the world's own accounts, collections, items and listings (GET /_sim/world) or new ones the " +
      "fragment defines. " +
      '`at` and `createdAt` are "now" when left out (the time a block mined now gets); `"+2h"` moves the chain\'s ' +
      "clock forward. " +
      "The fragment is checked whole before anything is sent; if a transaction still fails, every chain, the read " +
      "models, the API keys and the handles go back to where they were. " +
      "The answer resolves every new handle and gives each timeline entry's transaction. Journaled with `--state` " +
      "(replayed as applied). " +
      `The body may be up to ${FRAGMENT_BODY_LIMIT}.`,
    body: Fragment,
    bodyLimit: FRAGMENT_BODY_LIMIT,
    response: ArrangeResponse,
    errors: [
      ERRORS.INVALID_FRAGMENT,
      ERRORS.NODE_CANNOT,
      ...NODE_REFUSED,
      ERRORS.FRAGMENT_BREAKS_RULE,
      ERRORS.FRAGMENT_REVERTED,
      ERRORS.CHAIN_UNAVAILABLE,
      ...DOWN,
    ],
  },
  createCollection: {
    method: "post",
    path: "/_sim/collections",
    summary: "Create a collection",
    description:
      "Deploys a collection through the factory, owned by the developer wallet of the API key `owner`, with the minter " +
      "role for each of `minters` (and for every wallet of their pools, and of the owner's, where --keys gives an " +
      "account several); the other fields are its metadata, which goes on chain in the same transaction (every " +
      "simulator on the chain sees it).",
    body: CreateCollectionBody,
    response: CreatedCollection,
    errors: [
      ERRORS.INVALID_REQUEST,
      ERRORS.UNKNOWN_CHAIN,
      ERRORS.NOT_FOUND,
      ERRORS.METADATA_TOO_LARGE,
      ...WRITE,
      ...DOWN,
      ERRORS.STORAGE_FULL,
    ],
  },
  listCollectionItems: {
    method: "get",
    path: "/_sim/collections/:address/items",
    summary: "A collection's items",
    description:
      "Every item of the collection by token id, from the read models: supply held, maximum supply, holders, history " +
      "length, and its name and image from the metadata. The API has no such list; the dashboard uses it.",
    params: CollectionParams,
    query: MinterQuery,
    response: CollectionItems,
    errors: [ERRORS.INVALID_REQUEST, ERRORS.NOT_FOUND, ...DOWN],
  },
  getCollectionItem: {
    method: "get",
    path: "/_sim/collections/:address/items/:tokenId",
    summary: "One item, whole",
    description:
      "An item's metadata with what the chain says of it: supply, every holder, its open listings and every sale (for " +
      "a price chart). The dashboard's item page.",
    params: ItemEventsParams,
    query: MinterQuery,
    response: CollectionItem,
    errors: [ERRORS.INVALID_REQUEST, ERRORS.NOT_FOUND, ...DOWN],
  },
  getCollectionVolume: {
    method: "get",
    path: "/_sim/collections/:address/volume",
    summary: "Volume per day",
    description:
      "The USD worth and count of a collection's sales per UTC day, from its first sale's day to the chain head's. The " +
      "dashboard's volume chart.",
    params: CollectionParams,
    query: MinterQuery,
    response: CollectionVolume,
    errors: [ERRORS.INVALID_REQUEST, ERRORS.NOT_FOUND, ...DOWN],
  },
  grantMinterRole: {
    method: "post",
    path: "/_sim/collections/:address/minters",
    summary: "Grant the minter role",
    description:
      "The collection's owner grants the minter role to the API key's developer wallet, on chain (with every wallet of " +
      "its pool first, on a node where --keys gives the account several).",
    params: CollectionParams,
    body: MinterBody,
    response: MinterResponse,
    errors: MINTER_CHANGE,
  },
  revokeMinterRole: {
    method: "delete",
    path: "/_sim/collections/:address/minters/:apiKey",
    summary: "Revoke the minter role",
    description:
      "The collection's owner takes the minter role from the API key's developer wallet, on chain (then from every " +
      "wallet of its pool, on a node where --keys gives the account several): the next mint with the key is refused.",
    params: MinterParams,
    query: MinterQuery,
    response: MinterResponse,
    errors: MINTER_CHANGE,
  },
  createApiKey: {
    method: "post",
    path: "/_sim/api-keys",
    summary: "Create an API key",
    description:
      "A new API key with a new developer wallet (funded on every chain). Grant it the minter role on a collection to " +
      "mint.",
    body: CreateApiKeyBody,
    response: ApiKeyResponse,
    errors: [ERRORS.INVALID_REQUEST, ERRORS.CONFLICT, ERRORS.NODE_CANNOT, ...DOWN, ERRORS.STORAGE_FULL],
  },
  // The control operations of the HTTP layer: fault rules and the request log.
  addFault: {
    method: "post",
    path: "/_sim/faults",
    summary: "Add a fault rule",
    description:
      "Matching API requests (method, path pattern, API key) get a status (503 and 429 with Retry-After), a delay, a " +
      "rate limit (429 with Retry-After), a dropped connection, or a body: one given whole (JSON or text), or the " +
      "route's own answer malformed, truncated, or with fields dropped, renamed, of another type or added; for " +
      "`times` requests or with a seeded `probability`. A faulted request never reaches the chain, but one whose " +
      "answer is changed: it is served, and only what the client reads differs.",
    body: FaultBody,
    response: Fault,
    errors: [ERRORS.INVALID_REQUEST],
  },
  listFaults: {
    method: "get",
    path: "/_sim/faults",
    summary: "List fault rules",
    description: "The active fault rules, with how often each was applied.",
    response: FaultList,
    errors: [],
  },
  clearFaults: {
    method: "delete",
    path: "/_sim/faults",
    summary: "Remove every fault rule",
    description: "Removes every fault rule.",
    response: Done,
    errors: [],
  },
  removeFault: {
    method: "delete",
    path: "/_sim/faults/:id",
    summary: "Remove a fault rule",
    description: "Removes one fault rule.",
    params: IdParams,
    response: Done,
    errors: [ERRORS.NOT_FOUND],
  },
  listRequests: {
    method: "get",
    path: "/_sim/requests",
    summary: "The last requests",
    description:
      "The last requests the simulator answered, newest first: method, path, query, status, duration (API keys and " +
      "tokens masked); at most 1,000 are kept. " +
      "Filter by `path` (a pattern as fault rules take), `status` (`404` or `4xx`) and `method`. " +
      "The dashboard's own requests (its page and files, and its calls, which carry the header `X-Sim-Dashboard`) and " +
      "reads of this log are not recorded.",
    query: RequestLogQuery,
    response: RequestLog,
    errors: [ERRORS.INVALID_REQUEST],
  },
  getRequest: {
    method: "get",
    path: "/_sim/requests/:id",
    summary: "One request, with its bodies",
    description:
      "A logged request with its request and response bodies (up to 8,000 characters each; API keys and tokens " +
      "masked). Bodies are kept for the newest 200 requests.",
    params: RequestParams,
    response: LoggedRequestDetail,
    errors: [ERRORS.INVALID_REQUEST, ERRORS.NOT_FOUND],
  },
  // The control operations that push events: a Server-Sent Events stream, and signed webhooks.
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
export const { getState, getTime, advanceTime, takeSnapshot, revertSnapshot, resetWorld } = CONTROL;
export const { getWorld, applyScenario } = CONTROL;
export const { createCollection, listCollectionItems, getCollectionItem, getCollectionVolume } = CONTROL;
export const { grantMinterRole, revokeMinterRole, createApiKey } = CONTROL;
export const { addFault, listFaults, clearFaults, removeFault, listRequests, getRequest } = CONTROL;
export const { streamEvents, createWebhook, listWebhooks, getWebhook, deleteWebhook } = CONTROL;
/** Every control operation, in the order the document lists them. */
export const CONTROL_OPERATIONS = Object.values(CONTROL);

export type ControlOperationId = (typeof CONTROL_OPERATIONS)[number]["operationId"];
