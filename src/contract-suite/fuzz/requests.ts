import { request as httpRequest } from "node:http";
import { request as httpsRequest } from "node:https";
import fc from "fast-check";
import type { TSchema } from "@sinclair/typebox";
import type { Operation } from "../../schemas/operations.ts";
import { parseJson } from "../http.ts";
import { oddHeaders, type HeaderList } from "./headers.ts";
import { validDrafts, type Draft } from "./valid.ts";
import { jsonObject, textValue, type KnownValues } from "./values.ts";
import type { Known } from "./world.ts";

/** One generated request, as sent: what the curl line of a failure repeats exactly. */
export interface FuzzRequest extends Draft {
  operation: string;
  method: string;
  /** Path with its parameters filled in (already encoded). */
  path: string;
}

/** What the generated requests use besides the schemas: real values, and the key of --api-key. */
export type FuzzContext = Known & { apiKey?: string };

// Requests the schemas drive, field by field: mostly valid-looking values, with boundaries and
// what a careless or hostile client sends instead (wrong types, other notations, odd text,
// missing and unknown fields, bodies that are not JSON or not in the coding they name).

function pathArbitrary(operation: Operation, known: KnownValues): fc.Arbitrary<[string, string][]> {
  const properties = (operation.params?.properties ?? {}) as Record<string, TSchema>;
  const names = Object.keys(properties);
  if (names.length === 0) return fc.constant([]);
  // An empty or dot segment is another route (or none), not this operation with a bad value.
  const segment = (name: string) =>
    textValue(properties[name]!, known, name).filter((value) => !["", ".", ".."].includes(value.trim()));
  return fc
    .tuple(...names.map(segment))
    .map((values) => names.map((name, i) => [name, values[i]!] as [string, string]));
}

/** A value about twice per request in all, over `fields` fields; otherwise null (the field left out). */
function sometimes<T>(value: fc.Arbitrary<T>, fields: number): fc.Arbitrary<T | null> {
  return fc.oneof({ weight: Math.max(1, fields - 2), arbitrary: fc.constant(null) }, { weight: 2, arbitrary: value });
}

function queryArbitrary(operation: Operation, context: FuzzContext): fc.Arbitrary<[string, string][]> {
  const properties = (operation.query?.properties ?? {}) as Record<string, TSchema>;
  const fields = Object.entries(properties)
    .filter(([name]) => name !== "apiKey")
    .map(([name, schema]) =>
      sometimes(
        textValue(schema, context, name).map((value) => [name, value] as [string, string]),
        Object.keys(properties).length,
      ),
    );
  const extra = fc.oneof(
    { weight: 8, arbitrary: fc.constant(null) },
    {
      weight: 1,
      arbitrary: fc.tuple(
        fc.constantFrom("unknown", "perPage", "page", "__proto__", "sortBy[]", "chainId"),
        fc.constantFrom("1", "", "x", "0x10"),
      ),
    },
  );
  const apiKey = operation.authQuery?.includes("apiKey")
    ? fc.oneof(
        {
          weight: context.apiKey ? 6 : 0,
          arbitrary: fc.constant<[string, string][]>(context.apiKey ? [["apiKey", context.apiKey]] : []),
        },
        { weight: 1, arbitrary: fc.constantFrom<[string, string][]>([], [["apiKey", "not-a-key"]], [["apiKey", ""]]) },
      )
    : fc.constant<[string, string][]>([]);
  return fc
    .tuple(fc.tuple(...fields), extra, apiKey)
    .map(
      ([chosen, more, key]) =>
        [...chosen.filter((field) => field !== null), ...(more ? [more] : []), ...key] as [string, string][],
    );
}

const CONTENT_TYPES = fc.oneof(
  { weight: 8, arbitrary: fc.constantFrom("application/json", "application/json; charset=utf-8") },
  { weight: 1, arbitrary: fc.constantFrom("text/plain", "application/x-www-form-urlencoded", "application/xml", "") },
);
const CODINGS = fc.oneof(
  { weight: 12, arbitrary: fc.constant("") },
  { weight: 1, arbitrary: fc.constantFrom("gzip", "deflate", "br", "x-squash") },
);
const ODD_BODIES = ["", "null", "[]", "{", '"mint"', "{}", '{"item":', "\u0000", "1e999"];

function bodyArbitrary(operation: Operation, known: KnownValues): fc.Arbitrary<{ body?: string; headers: HeaderList }> {
  if (!operation.body) return fc.constant({ headers: [] });
  const json = jsonObject(operation.body, known).map((value) => JSON.stringify(value));
  return fc
    .tuple(
      fc.oneof({ weight: 5, arbitrary: json }, { weight: 1, arbitrary: fc.constantFrom(...ODD_BODIES) }),
      CONTENT_TYPES,
      CODINGS,
    )
    .map(([body, contentType, coding]) => ({
      body,
      headers: [
        ...(contentType ? [["content-type", contentType]] : []),
        ...(coding ? [["content-encoding", coding]] : []),
      ] as HeaderList,
    }));
}

function schemaDrafts(operation: Operation, context: FuzzContext): fc.Arbitrary<Draft> {
  return fc
    .tuple(pathArbitrary(operation, context), queryArbitrary(operation, context), bodyArbitrary(operation, context))
    .map(([params, query, { body, headers }]) => ({
      params,
      query,
      headers,
      ...(body !== undefined ? { body } : {}),
    }));
}

/**
 * Requests for one operation of the route table: valid ones built from what the target serves,
 * and schema-driven ones (valid, boundary and hostile values), each sometimes with odd headers.
 */
export function requestsFor(operation: Operation, context: FuzzContext): fc.Arbitrary<FuzzRequest> {
  const valid = validDrafts(operation, context);
  const drafts = valid
    ? fc.oneof(
        { withCrossShrink: true },
        { weight: 3, arbitrary: valid },
        { weight: 2, arbitrary: schemaDrafts(operation, context) },
      )
    : schemaDrafts(operation, context);
  return fc.tuple(drafts, oddHeaders).map(([{ params, query, body, headers }, odd]) => ({
    operation: operation.operationId,
    method: operation.method.toUpperCase(),
    path: params.reduce((path, [name, value]) => path.replace(`:${name}`, encodeURIComponent(value)), operation.path),
    params,
    query,
    headers: [["accept", "application/json"], ...headers, ...odd] as HeaderList,
    ...(body !== undefined ? { body } : {}),
  }));
}

export function urlOf(baseUrl: string, request: FuzzRequest): string {
  const query = new URLSearchParams(request.query).toString();
  return `${baseUrl}${request.path}${query ? `?${query}` : ""}`;
}

/** The request as a curl line anyone can paste (the API key shown as $API_KEY). */
export function curlOf(baseUrl: string, request: FuzzRequest, apiKey?: string): string {
  const quote = (text: string) => `'${text.replace(/'/g, `'\\''`)}'`;
  let url = urlOf(baseUrl, request);
  if (apiKey) url = url.replaceAll(`apiKey=${encodeURIComponent(apiKey)}`, "apiKey=$API_KEY");
  // A long run of one letter (a header over the server's limit) is written as the shell makes it.
  const header = ([name, value]: [string, string]) =>
    value.length > 200 && /^([a-z])\1*$/.test(value)
      ? `"${name}: $(printf '%*s' ${value.length} '' | tr ' ' ${value[0]})"`
      : quote(`${name}: ${value}`);
  const headers = request.headers.flatMap((pair) => ["-H", header(pair)]);
  const body = request.body !== undefined ? ["--data-raw", quote(request.body)] : [];
  const shownUrl = url.includes("$API_KEY") ? `"${url.replace(/"/g, '\\"')}"` : quote(url);
  return ["curl", "-X", request.method, ...headers, ...body, shownUrl].join(" ");
}

/** What came back for one generated request, or why nothing did. */
export type FuzzAnswer = { status: number; text: string; json: unknown; ms: number } | { failed: string; ms: number };

/**
 * Sends a generated request exactly as generated: its headers in order, repeated ones repeated,
 * Latin-1 values as such, and no Host header when it says so (fetch would merge, refuse or add
 * them). Answers within `limitMs` or reports why not.
 */
export function send(baseUrl: string, request: FuzzRequest, limitMs: number): Promise<FuzzAnswer> {
  const started = performance.now();
  const url = new URL(urlOf(baseUrl, request));
  const headers = request.headers.some(([name]) => name.toLowerCase() === "host")
    ? request.headers.filter(([name, value]) => name.toLowerCase() !== "host" || value !== "")
    : [["host", url.host], ...request.headers];
  const body = request.body === undefined ? undefined : Buffer.from(request.body, "utf8");
  const raw = [...headers.flat(), ...(body ? ["content-length", String(body.length)] : [])];
  const ms = () => performance.now() - started;
  return new Promise((resolve) => {
    const req = (url.protocol === "https:" ? httpsRequest : httpRequest)(
      url,
      { method: request.method, headers: raw, setHost: false },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("error", (error) => resolve({ failed: error.message, ms: ms() }));
        res.on("end", () => {
          const text = Buffer.concat(chunks).toString("utf8");
          resolve({ status: res.statusCode ?? 0, text, json: parseJson(text), ms: ms() });
        });
      },
    );
    req.setTimeout(limitMs, () => req.destroy(new Error(`no answer within ${limitMs} ms`)));
    req.on("error", (error: Error & { code?: string }) => resolve({ failed: error.code ?? error.message, ms: ms() }));
    req.end(body);
  });
}
