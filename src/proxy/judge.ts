import { brotliDecompressSync, gunzipSync, inflateSync } from "node:zlib";
import { answerProblems, codeMismatch } from "../contract-suite/answers/answer-checks.ts";
import { apiErrorIn } from "../core/errors.ts";
import { Router } from "../pipeline/pipeline.ts";
import { getItemMetadata, OPERATIONS } from "../schemas/operations.ts";
import { API_SPACE } from "../pipeline/pipeline.ts";
import type { Outgoing, Upstream } from "./forward.ts";

/** The API's operations and the metadata route, as the simulator routes them: their answers are JSON to check. */
const router = new Router([...OPERATIONS, getItemMetadata], API_SPACE);

/** What was checked of one exchange: the operation it was (or why the route table refuses it), and what broke. */
export interface Judged {
  /** The operation's id, `(no route)` for a path of the API the table does not serve. */
  operation: string;
  problems: string[];
}

/**
 * The contract suite's checks of one answer (src/contract-suite/answers/), for the operation the route table finds
 * for the request; a path under `/api/` the table refuses must be refused so (404, or 405), with the error body.
 * Undefined: a path outside the API (an image, the docs), passed on unchecked.
 */
export function judge(outgoing: Outgoing, answer: Upstream): Judged | undefined {
  const url = new URL(outgoing.url, "http://proxy");
  let routed;
  try {
    routed = router.route(outgoing.method, url.pathname);
  } catch (thrown) {
    const refusal = apiErrorIn(thrown);
    if (!refusal) throw thrown;
    return { operation: "(no route)", problems: refusalProblems(refusal.status, answer) };
  }
  if (!routed || "allow" in routed) return undefined;
  const text = bodyText(answer);
  const problems = answerProblems(
    routed.operation,
    {
      params: Object.entries(routed.params),
      query: [...url.searchParams],
      headers: headerList(outgoing.headers),
      body: outgoing.body.length > 0 ? outgoing.body.toString("utf8") : undefined,
    },
    { status: answer.status, text, json: parsed(text) },
  );
  return { operation: routed.operation.operationId, problems };
}

function refusalProblems(status: number, answer: Upstream): string[] {
  if (answer.status !== status)
    return [`answered ${answer.status} to a route the interface does not have, expected ${status}`];
  const json = parsed(bodyText(answer));
  if (json === undefined) return [`the body is not JSON: ${bodyText(answer).slice(0, 120)}`];
  const mismatch = codeMismatch(status, json);
  return mismatch ? [mismatch] : [];
}

/** The headers in the order Node read them, each value once per line. */
function headerList(headers: Outgoing["headers"]): [string, string][] {
  return Object.entries(headers).flatMap(([name, value]) =>
    value === undefined ? [] : (Array.isArray(value) ? value : [value]).map((one): [string, string] => [name, one]),
  );
}

/** The answer's body as text, decoded from the content coding it names. */
export function bodyText(answer: Upstream): string {
  const coding = String(answer.headers["content-encoding"] ?? "")
    .trim()
    .toLowerCase();
  try {
    const decode = { gzip: gunzipSync, "x-gzip": gunzipSync, deflate: inflateSync, br: brotliDecompressSync }[coding];
    return (decode ? decode(answer.body) : answer.body).toString("utf8");
  } catch {
    return answer.body.toString("utf8");
  }
}

function parsed(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
