// A typed client for the control API (`/_sim`) of any running simulator:
//
//   const control = controlClient("http://127.0.0.1:3000");
//   const { id } = await control.snapshot();
//   await control.arrange({ timeline: [{ action: "transfer", item: "sky-saddle", from: "alice", to: "bob", amount: 1 }]
// });
//   await control.revert(id);
//
// Each method sends one operation of the route table (src/schemas/control-operations.ts): its method, path, query
// and body, and answers its response's type. `request(operationId, parts)` sends any of them.
import type { Static, TSchema } from "@sinclair/typebox";
import { CONTROL_OPERATIONS, type ControlOperationId } from "../schemas/control-operations.ts";
import { RequestLogQuery } from "../schemas/control.ts";
import type * as Control from "../schemas/control.ts";
import type { ErrorBody } from "../schemas/error.ts";
import type { EventKind, WebhookBody } from "../schemas/events.ts";
import type { FaultBody } from "../schemas/fault-rule.ts";
import type { ArrangeAnswer, Fragment } from "./arrange-types.ts";
import { ControlError } from "./errors.ts";
import { streamEvents, type EventsOptions, type EventStream } from "./events-client.ts";
import { verifyRequests, type RequestExpectation } from "./verify-requests.ts";
import { waitForEvent, type EventMatch, type EventWait, type SimEventOf, type WaitOptions } from "./wait-for-event.ts";

type Body<T extends keyof typeof Control> = Static<(typeof Control)[T]>;
type Operations = { [Op in (typeof CONTROL_OPERATIONS)[number] as Op["operationId"]]: Op };
type Part<Id extends ControlOperationId, Key extends string> =
  Operations[Id] extends Record<Key, infer S extends TSchema> ? Static<S> : never;

/** What an operation takes: its path parameters, query and body, as their schemas type them. */
export interface ControlRequest<Id extends ControlOperationId> {
  params?: Part<Id, "params">;
  query?: Partial<Part<Id, "query">>;
  body?: Part<Id, "body">;
}
/** What an operation answers. */
export type ControlAnswer<Id extends ControlOperationId> = Static<Operations[Id]["response"]>;

/** The control client: a method for every operation of the route table (CLIENT_METHODS), and `request`. */
export type ControlClient = ReturnType<typeof controlClient>;

/** The method that sends each operation: a new operation in the route table fails to compile until it has one. */
export const CLIENT_METHODS = {
  getState: "state",
  getTime: "time",
  advanceTime: "advanceTime",
  takeSnapshot: "snapshot",
  revertSnapshot: "revert",
  resetWorld: "reset",
  getWorld: "world",
  applyScenario: "arrange",
  createCollection: "createCollection",
  listCollectionItems: "collectionItems",
  getCollectionItem: "collectionItem",
  getCollectionVolume: "collectionVolume",
  grantMinterRole: "grantMinter",
  revokeMinterRole: "revokeMinter",
  createApiKey: "createApiKey",
  addFault: "addFault",
  listFaults: "faults",
  clearFaults: "clearFaults",
  removeFault: "removeFault",
  listRequests: "requests",
  getRequest: "loggedRequest",
  streamEvents: "events",
  createWebhook: "addWebhook",
  listWebhooks: "webhooks",
  getWebhook: "webhook",
  deleteWebhook: "removeWebhook",
} as const satisfies Record<ControlOperationId, Exclude<keyof ControlClient, "request">>;

/** The most requests the log keeps, all of which verify() reads. */
const REQUESTS_LOGGED = RequestLogQuery.properties.limit.maximum!;

export interface ControlClientOptions {
  /** The simulator's --admin-token, if it has one. */
  token?: string;
}

/** A client for the simulator at `url`. */
export function controlClient(url: string, { token }: ControlClientOptions = {}) {
  const base = `${url.replace(/\/+$/, "")}/_sim`;
  /** One request under /_sim; a refusal throws ControlError with its body. */
  async function send<T>(method: string, path: string, body?: unknown): Promise<T> {
    const headers: Record<string, string> = {
      ...(body === undefined ? {} : { "content-type": "application/json" }),
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    };
    const response = await fetch(`${base}${path}`, {
      method,
      headers,
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const answer = (await response.json()) as T | ErrorBody;
    if (!response.ok) throw new ControlError(response.status, answer as ErrorBody);
    return answer as T;
  }
  /** Sends one control operation by its id in the route table. */
  function request<Id extends ControlOperationId>(
    operationId: Id,
    parts: ControlRequest<Id> = {},
  ): Promise<ControlAnswer<Id>> {
    const operation = CONTROL_OPERATIONS.find((candidate) => candidate.operationId === operationId)!;
    const { params = {}, query = {}, body } = parts as { params?: object; query?: object; body?: unknown };
    const path = operation.path
      .slice("/_sim".length)
      .replace(/:(\w+)/g, (_, name: string) => encodeURIComponent(String((params as Record<string, unknown>)[name])));
    const search = new URLSearchParams(
      Object.entries(query).flatMap(([name, value]) => (value === undefined ? [] : [[name, String(value)]])),
    ).toString();
    return send(operation.method.toUpperCase(), `${path}${search ? `?${search}` : ""}`, body);
  }
  const onChain = (chainId?: number) => (chainId === undefined ? {} : { chainId });
  const logged = async (query: ControlRequest<"listRequests">["query"]) =>
    (await request("listRequests", { query })).requests;
  /**
   * Events as the chains' indexes take them in (`for await (const e of sim.events({ collection, timeout: 5_000 }))`);
   * leave the loop to stop; past `timeout` ms the loop throws EventTimeoutError naming what it was given.
   */
  const events = (options?: EventsOptions): EventStream => streamEvents(base, options, token);
  return {
    request,
    /** What --state keeps, and whether its journal takes writes now. */
    state: () => request("getState"),
    time: () => request("getTime"),
    advanceTime: (seconds: number, chainId?: number) =>
      request("advanceTime", { body: { seconds, ...onChain(chainId) } }),
    snapshot: () => request("takeSnapshot"),
    revert: async (id: string): Promise<void> => void (await request("revertSnapshot", { params: { id } })),
    reset: async (): Promise<void> => void (await request("resetWorld")),
    /** The world by handle: accounts with their API keys, each chain's contracts, collections, items, listings. */
    world: () => request("getWorld"),
    /**
     * Applies a fragment of the scenario format to the world, all or nothing (`POST /_sim/scenario`): accounts, API
     * keys, collections, items, and a timeline of every action (addItem, mint, transfer, transferBatch, burn, list,
     * updatePrice, addToListing, removeFromListing, delist, buy), naming the world's handles or new ones. Answers each
     * new handle resolved, keyed by the fragment's own names, and each entry's transaction; throws ControlError (400,
     * 409, 422) with nothing applied.
     */
    arrange: <const F extends Fragment>(fragment: F) =>
      request("applyScenario", { body: fragment as never }) as Promise<ArrangeAnswer<F>>,
    createApiKey: (name: string) => request("createApiKey", { body: { name } }),
    createCollection: (
      collection: Partial<Body<"CreateCollectionBody">> &
        Pick<Body<"CreateCollectionBody">, "chainId" | "name" | "owner">,
    ) => request("createCollection", { body: collection as Body<"CreateCollectionBody"> }),
    collectionItems: (address: string, chainId?: number) =>
      request("listCollectionItems", { params: { address }, query: onChain(chainId) }),
    collectionItem: (address: string, tokenId: number, chainId?: number) =>
      request("getCollectionItem", { params: { address, tokenId }, query: onChain(chainId) }),
    collectionVolume: (address: string, chainId?: number) =>
      request("getCollectionVolume", { params: { address }, query: onChain(chainId) }),
    grantMinter: (address: string, apiKey: string, chainId?: number) =>
      request("grantMinterRole", { params: { address }, body: { apiKey, ...onChain(chainId) } }),
    revokeMinter: (address: string, apiKey: string, chainId?: number) =>
      request("revokeMinterRole", { params: { address, apiKey }, query: onChain(chainId) }),
    addFault: (rule: Omit<FaultBody, "seed"> & { seed?: number }) => request("addFault", { body: rule as FaultBody }),
    faults: async () => (await request("listFaults")).faults,
    removeFault: async (id: string): Promise<void> => void (await request("removeFault", { params: { id } })),
    clearFaults: async (): Promise<void> => void (await request("clearFaults")),
    /** The last requests, newest first: `limit` of them, or as `filter` says (`path`, `status`, `method`, `limit`). */
    requests: (filter: number | NonNullable<ControlRequest<"listRequests">["query"]> = {}) =>
      logged(typeof filter === "number" ? { limit: filter } : filter),
    /** One logged request with its bodies. */
    loggedRequest: (id: number) => request("getRequest", { params: { id } }),
    /**
     * Asserts on the request log, as WireMock's verify: `{ method, path, query, status, count }` (default at least one);
     * answers the requests that match, or throws RequestVerificationError listing the closest the log holds.
     */
    verify: async (expected: RequestExpectation) => verifyRequests(await logged({ limit: REQUESTS_LOGGED }), expected),
    /**
     * The first event the match accepts (`{ collection, kinds: ["Swapped"], where }`), typed by its kinds; rejects with
     * EventTimeoutError after `timeout` ms (default 10,000), naming every event seen meanwhile. `await wait.ready`
     * before acting, and nothing the action causes is missed.
     */
    waitForEvent: <Kind extends EventKind = EventKind>(
      match: EventMatch<Kind> = {},
      options?: WaitOptions,
    ): EventWait<SimEventOf<Kind>> => waitForEvent(events, match, options),
    /**
     * Deliveries of the events passing the filters to `url`, signed with `secret` (made when left out: read it from the
     * answer).
     */
    addWebhook: (webhook: WebhookBody) => request("createWebhook", { body: webhook }),
    webhooks: async () => (await request("listWebhooks")).webhooks,
    /** One webhook with its delivery log. */
    webhook: (id: string) => request("getWebhook", { params: { id } }),
    removeWebhook: async (id: string): Promise<void> => void (await request("deleteWebhook", { params: { id } })),
    events,
  };
}
