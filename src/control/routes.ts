import type Router from "@koa/router";
import type { Middleware } from "koa";
import { found } from "../core/errors.ts";
import type { ControlOperationId } from "../schemas/control-operations.ts";
import * as ops from "../schemas/control-operations.ts";
import { handle } from "../routes/handle.ts";
import type { Control } from "./control.ts";
import { collectionReadRoutes } from "./collection-reads.ts";
import { createCollection, setMinterRole } from "./world-editing.ts";
import { walletGas } from "./wallet-gas.ts";
import type { PushedEvents } from "../events/events.ts";
import { eventHandlers } from "../events/routes.ts";
import { worldHandlers } from "./world-routes.ts";

const done = { ok: true } as const;

/** The handler of each control operation. */
function handlers(control: Control, events: PushedEvents): Record<ControlOperationId, Middleware> {
  const { parts } = control;
  return {
    ...eventHandlers(events),
    ...worldHandlers(control),
    getState: handle(ops.getState, {
      answer: async () => {
        const gas = await walletGas(parts);
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
    ...collectionReadRoutes(parts),
    grantMinterRole: handle(ops.grantMinterRole, {
      answer: ({ params, body }) =>
        setMinterRole(parts, params.address as `0x${string}`, body.apiKey, true, body.chainId),
    }),
    revokeMinterRole: handle(ops.revokeMinterRole, {
      answer: ({ params, query }) =>
        setMinterRole(parts, params.address as `0x${string}`, params.apiKey, false, query.chainId),
    }),
    createApiKey: handle(ops.createApiKey, {
      answer: async ({ body }) => {
        const { apiKey, name, wallet } = await control.createApiKey(body.name);
        return { apiKey, name, wallet };
      },
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

/** Serves the control API under /_sim (the app guards it first: src/control/guard.ts). */
export function controlRoutes(router: Router, control: Control, events: PushedEvents): void {
  const served = handlers(control, events);
  for (const operation of ops.CONTROL_OPERATIONS)
    router[operation.method](operation.path, served[operation.operationId]);
}
