import { Done, Fault, FaultBody, FaultList, FaultParams, RequestLog, RequestLogQuery } from "./control.ts";
import { controlOperation as operation, tag } from "./control-operation.ts";

// The control operations of the HTTP layer: fault rules and the request log.

export const addFault = operation({
  method: "post",
  path: "/_sim/faults",
  operationId: "addFault",
  tag,
  summary: "Add a fault rule",
  description:
    "Matching API requests (method, path pattern, API key) get a status, a delay, a rate limit (429 with Retry-After) or a dropped connection, for `times` requests or with a seeded `probability`. A faulted request never reaches the chain.",
  body: FaultBody,
  response: Fault,
  errors: {
    400: "The body is invalid, or the rule could never change an answer (an effect that does nothing, a path without its leading `/` or under `/_sim/`, a probability of 0).",
  },
});

export const listFaults = operation({
  method: "get",
  path: "/_sim/faults",
  operationId: "listFaults",
  tag,
  summary: "List fault rules",
  description: "The active fault rules, with how often each was applied.",
  response: FaultList,
  errors: {},
});

export const clearFaults = operation({
  method: "delete",
  path: "/_sim/faults",
  operationId: "clearFaults",
  tag,
  summary: "Remove every fault rule",
  description: "Removes every fault rule.",
  response: Done,
  errors: {},
});

export const removeFault = operation({
  method: "delete",
  path: "/_sim/faults/:id",
  operationId: "removeFault",
  tag,
  summary: "Remove a fault rule",
  description: "Removes one fault rule.",
  params: FaultParams,
  response: Done,
  errors: { 404: "No such fault rule." },
});

export const listRequests = operation({
  method: "get",
  path: "/_sim/requests",
  operationId: "listRequests",
  tag,
  summary: "The last requests",
  description:
    "The last requests the API answered, newest first (method, path, status, duration, API key masked); at most 1,000 are kept.",
  query: RequestLogQuery,
  response: RequestLog,
  errors: { 400: "A bad limit." },
});
