import { Done, IdParams, LoggedRequestDetail, RequestLog, RequestLogQuery, RequestParams } from "./control.ts";
import { Fault, FaultBody, FaultList } from "./fault-rule.ts";
import { ERRORS } from "../core/errors.ts";
import { controlOperations } from "./operations.ts";

// The control operations of the HTTP layer: fault rules and the request log.

export const FAULTS = controlOperations({
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
});
export const { addFault, listFaults, clearFaults, removeFault, listRequests, getRequest } = FAULTS;
