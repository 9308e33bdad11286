import type { TSchema } from "@sinclair/typebox";
import { codesOf } from "../../core/errors.ts";
import { API_KEY_HEADER } from "../../schemas/common.ts";
import { ErrorBody } from "../../schemas/error.ts";
import { documentedStatuses, SERVER_REFUSALS, type Operation } from "../../schemas/operations.ts";
import { nonConformance, typed } from "../fuzz/conformance.ts";
import { bodyProblems } from "../schemas.ts";
import { headerOf } from "../fuzz/headers.ts";
import type { Draft } from "../fuzz/valid.ts";
import type { Exchange } from "../http.ts";
import { historyPageProblems, listPageProblems } from "./page-rules.ts";

// The contract suite's checks of one answer, read from that answer and its request alone (no other request is
// sent): what the fuzzer judges each answer by, and what a proxy in front of a live deployment checks its traffic
// with. The suite's own checks compare answers across a run; these are the part of them one answer can show.

export type ReceivedAnswer = Pick<Exchange, "status" | "text" | "json">;

/** The statuses whose codes a target is held to (the error catalog's): the ones every deployment answers. */
const CODES_BY_STATUS: Record<number, string[]> = Object.fromEntries(
  [400, 401, 404].map((status) => [status, codesOf(status)]),
);

/** An error body's code that does not go with its status, or undefined. */
export function codeMismatch(status: number, json: unknown): string | undefined {
  const code = (json as { error?: unknown } | undefined)?.error;
  const expected = CODES_BY_STATUS[status];
  if (typeof code !== "string" || !expected || expected.includes(code)) return undefined;
  return `error code ${code} does not go with status ${status} (expected ${expected.join(" or ")})`;
}

/**
 * What one answer to one request of `operation` breaks of the interface: a status the operation does not document,
 * a 5xx, a body that is not JSON or not its status's schema, an error code of another status, a request its schemas
 * refuse accepted (or, for a read, refused otherwise than 400), a write without a key not answered 401, and for a
 * 200 to a conforming read, the paging, order, filter, count and id rules one page can show.
 */
export function answerProblems(operation: Operation, request: Draft, answer: ReceivedAnswer): string[] {
  const problems = statusAndBodyProblems(operation, answer);
  const mismatch = codeMismatch(answer.status, answer.json);
  if (mismatch) problems.push(mismatch);
  const reasons = nonConformance(operation, request);
  // The request names an API key at all: one of the query's key parameters, or the header.
  const keyGiven =
    request.query.some(([name]) => operation.authQuery?.includes(name)) ||
    headerOf(request.headers, API_KEY_HEADER.toLowerCase()) !== undefined;
  if (operation.authQuery && !keyGiven && reasons.length === 0 && answer.status !== 401)
    problems.push(`answered ${answer.status} to a request with no API key, expected 401`);
  if (answer.status < 300 && reasons.length > 0)
    problems.push(`accepted (${answer.status}) a request its schemas refuse: ${reasons[0]}`);
  if (isApiRead(operation) && reasons.length > 0 && answer.status >= 300 && refusedOtherwise(answer.status))
    problems.push(`answered ${answer.status} to a request its schemas refuse, expected 400: ${reasons[0]}`);
  // No problem yet means the body is JSON of the 200 schema (statusAndBodyProblems names a body that is not) and the
  // request was one its schemas take (a refused one answered 200 is a problem already).
  if (answer.status !== 200 || problems.length > 0) return problems;
  return [...problems, ...pageProblems(operation, request, answer.json)];
}

/**
 * What is wrong with an answer, whatever was asked: a 5xx, a status the operation does not document (its own errors,
 * or the server's refusals every operation may meet), a body that is not JSON or not what its status's schema says.
 */
function statusAndBodyProblems(operation: Operation, answer: ReceivedAnswer): string[] {
  const problems: string[] = [];
  if (answer.status >= 500) problems.push(`answered ${answer.status}: a server error`);
  const documented = documentedStatuses(operation);
  if (!documented.includes(answer.status))
    problems.push(
      `answered ${answer.status}, which ${operation.operationId} does not document (${documented.join(", ")})`,
    );
  if (answer.json === undefined) return [...problems, `the body is not JSON: ${answer.text.slice(0, 120)}`];
  const named = answer.status === 200 ? "its response schema" : "the error body";
  const schemaProblems = bodyProblems(answer.status === 200 ? operation.response : ErrorBody, answer.json);
  return [...problems, ...schemaProblems.map((line) => `${line} (${named})`)];
}

/** A read of the API (the metadata and image routes answer 404 for what they cannot serve, whatever its form). */
const isApiRead = (operation: Operation) => operation.method === "get" && operation.path.startsWith("/api/");

/**
 * A read's refusal that is not one the server itself answers before any operation sees the request (400 among them,
 * for a request that is not HTTP).
 */
const refusedOtherwise = (status: number) =>
  status < 500 && !SERVER_REFUSALS.some((refusal) => refusal.status === status);

function pageProblems(operation: Operation, request: Draft, json: unknown): string[] {
  switch (operation.operationId) {
    case "getItemEvents":
      return historyPageProblems(request, (json as { events: Parameters<typeof historyPageProblems>[1] }).events);
    case "listCollections": {
      const properties = (operation.query?.properties ?? {}) as Record<string, TSchema>;
      return listPageProblems(request, json as Parameters<typeof listPageProblems>[1], (name, value) =>
        typed(properties[name], value),
      );
    }
    case "getCollection": {
      const asked = request.params[0]![1].toLowerCase();
      const { address } = (json as { collection: { address: string } }).collection;
      return address === asked ? [] : [`asked for collection ${asked}, answered ${address}`];
    }
    default:
      return [];
  }
}
