import type Router from "@koa/router";
import type { Middleware } from "koa";
import type { Address } from "viem";
import { apiError, ERRORS, found } from "../core/errors.ts";
import * as ops from "../schemas/control-operations.ts";
import { createWebhook, deleteWebhook, getWebhook, listWebhooks } from "../schemas/control-operations.ts";
import { responseValidator } from "../schemas/validate.ts";
import { handle } from "../routes/handle.ts";
import { collectionItems, collectionVolume, itemDetail } from "../views/collection-reads.ts";
import type { PushedEvents } from "../events/events.ts";
import { eventStream } from "../events/stream.ts";
import type { Control } from "./control.ts";
import { createCollection, setMinterRole } from "./world-editing.ts";

const done = { ok: true } as const;

/**
 * The route a fragment is posted to, and the body it may have: a fragment may be as large as a world (the app's body
 * parser reads it so).
 */
export const FRAGMENT_ROUTE = { path: ops.applyScenario.path, bodyLimit: ops.applyScenario.bodyLimit } as const;

const checkArranged = responseValidator(ops.applyScenario.response);

/** The handler of each control operation. */
function handlers(control: Control, events: PushedEvents): Record<ops.ControlOperationId, Middleware> {
  const { parts } = control;
  const { webhooks } = events;
  // The dashboard's reads of one collection: its items, one item whole, its volume per day.
  const collectionOf = async (rawAddress: string, chainId?: number) => {
    const address = rawAddress.toLowerCase() as Address;
    await parts.chains.whole();
    const lookup = await parts.chains.findCollection(address, chainId);
    if (!("found" in lookup)) throw apiError(ERRORS.NOT_FOUND, { what: `Collection ${address}` });
    const { chain, models } = lookup.found;
    return { address, models, head: { chainId: chain.chainId, collectionAddress: address } };
  };
  return {
    streamEvents: eventStream(events.feed, events.stream),
    createWebhook: handle(createWebhook, { answer: ({ body }) => webhooks.add(body) }),
    listWebhooks: handle(listWebhooks, { answer: async () => ({ webhooks: webhooks.list() }) }),
    getWebhook: handle(getWebhook, {
      answer: async ({ params }) => found(webhooks.get(params.id), `Webhook '${params.id}'`),
    }),
    deleteWebhook: handle(deleteWebhook, {
      answer: async ({ params }) => found(webhooks.remove(params.id) && done, `Webhook '${params.id}'`),
    }),
    getWorld: handle(ops.getWorld, { answer: async () => (await control.chains.sync(), control.world()) }),
    // The fragment's own checks read its body (src/arrange/apply.ts): they word each problem as a scenario file's are,
    // by JSON path, and judge a timeline entry by its own action only (the discriminator).
    applyScenario: async (ctx) => {
      ctx.body = checkArranged(await control.arrange(ctx.request.body));
    },
    getState: handle(ops.getState, {
      answer: async () => {
        const gas = await control.gas();
        return { ...control.state(), ...(gas ? { gas } : {}) };
      },
    }),
    getTime: handle(ops.getTime, { answer: () => control.time() }),
    advanceTime: handle(ops.advanceTime, { answer: ({ body }) => control.advanceTime(body.seconds, body.chainId) }),
    takeSnapshot: handle(ops.takeSnapshot, { answer: async () => ({ id: await control.snapshot() }) }),
    revertSnapshot: handle(ops.revertSnapshot, {
      answer: async ({ params }) => (await control.revert(params.id), done),
    }),
    resetWorld: handle(ops.resetWorld, { answer: async () => (await control.reset(), done) }),
    createCollection: handle(ops.createCollection, { answer: ({ body }) => createCollection(parts, body) }),
    listCollectionItems: handle(ops.listCollectionItems, {
      async answer({ params, query }) {
        const { address, models, head } = await collectionOf(params.address, query.chainId);
        return { ...head, items: collectionItems(models, address) };
      },
    }),
    getCollectionItem: handle(ops.getCollectionItem, {
      async answer({ params, query }) {
        const { address, models } = await collectionOf(params.address, query.chainId);
        return found(itemDetail(models, address, BigInt(params.tokenId)), `Item ${params.tokenId} of ${address}`);
      },
    }),
    getCollectionVolume: handle(ops.getCollectionVolume, {
      async answer({ params, query }) {
        const { address, models, head } = await collectionOf(params.address, query.chainId);
        return { ...head, days: collectionVolume(models, address) };
      },
    }),
    grantMinterRole: handle(ops.grantMinterRole, {
      answer: ({ params, body }) =>
        setMinterRole(parts, params.address as `0x${string}`, body.apiKey, true, body.chainId),
    }),
    revokeMinterRole: handle(ops.revokeMinterRole, {
      answer: ({ params, query }) =>
        setMinterRole(parts, params.address as `0x${string}`, params.apiKey, false, query.chainId),
    }),
    createApiKey: handle(ops.createApiKey, {
      answer: ({ body }) =>
        control.createApiKey(body.name).then(({ apiKey, name, wallet }) => ({ apiKey, name, wallet })),
    }),
    addFault: handle(ops.addFault, { answer: async ({ body }) => control.faults.add(body) }),
    listFaults: handle(ops.listFaults, { answer: async () => ({ faults: control.faults.list() }) }),
    clearFaults: handle(ops.clearFaults, { answer: async () => (control.faults.clear(), done) }),
    removeFault: handle(ops.removeFault, {
      answer: async ({ params }) => found(control.faults.remove(params.id) && done, `Fault rule '${params.id}'`),
    }),
    listRequests: handle(ops.listRequests, {
      answer: async ({ query }) => ({ requests: control.requests.last(query) }),
    }),
    getRequest: handle(ops.getRequest, {
      answer: async ({ params }) => found(control.requests.detail(params.id), `Request ${params.id} in the log`),
    }),
  };
}

/** Serves the control API under /_sim (the app guards it first: src/http/access.ts). */
export function controlRoutes(router: Router, control: Control, events: PushedEvents): void {
  const served = handlers(control, events);
  for (const operation of ops.CONTROL_OPERATIONS)
    router[operation.method](operation.path, served[operation.operationId]);
}
