import { http, HttpResponse, type HttpHandler } from "msw";
import { zeroAddress } from "viem";
import { ApiError, apiError, ERRORS } from "../core/errors.ts";
import { API_SPACE, Pipeline, type PipelineDeps, type Routed } from "../pipeline/pipeline.ts";
import { worldOf, type SnapshotFiles } from "./world-file.ts";
import { mockMint, MockWorld } from "./world.ts";

export interface HandlerOptions {
  /** Only requests to this origin are answered (e.g. "http://localhost:3000"); default any origin. */
  baseUrl?: string;
}

/** The mock holds no key book: any API key is a developer's, and no chain asks whether its wallet may mint. */
const ANY_KEY: PipelineDeps["accounts"] = {
  byApiKey: (apiKey) => ({ apiKey, name: apiKey, walletKey: "0x", wallet: zeroAddress }),
};

/**
 * MSW handlers for every operation of the route table, each answering through the same pipeline the simulator's
 * server answers through (same routing, checks, handlers, views and error bodies), over the world of the snapshot
 * files (`world.json`, folded by the indexer's reducers): same status, same body bytes. One more answers the API's
 * other paths (404/405, as the server). Other requests, and CORS preflights, are left alone.
 */
export function handlersFrom(
  files: SnapshotFiles,
  { baseUrl }: HandlerOptions,
  draw: PipelineDeps["draw"],
): HttpHandler[] {
  const world = new MockWorld(worldOf(files));
  const pipeline = new Pipeline({ chains: world, accounts: ANY_KEY, send: mockMint(world), draw });
  const origin = baseUrl ? escaped(baseUrl.replace(/\/+$/, "")) : "[a-z][a-z0-9+.-]*://[^/]+";
  const resolver = ({ request }: { request: Request }) => respond(pipeline, request);
  return [
    ...pipeline.router.routes.map(({ pattern }) =>
      http.all(new RegExp(`^${origin}${pattern.source.slice(1)}`, pattern.flags), resolver),
    ),
    http.all(new RegExp(`^${origin}${escaped(API_SPACE)}`), resolver),
  ];
}

/** A request answered as the server answers it: its body read as Koa's parser reads it, then the pipeline's answer. */
async function respond(pipeline: Pipeline, request: Request): Promise<Response | undefined> {
  if (request.method === "OPTIONS") return undefined;
  const url = new URL(request.url);
  const headers = new Headers();
  const contentType = request.headers.get("content-type") ?? "";
  try {
    const routed = routeOf(pipeline, request.method, url.pathname);
    if (!routed) return undefined;
    // The server reads the body before it routes: a body it cannot read is refused first.
    const body = await bodyOf(request, contentType);
    if ("refused" in routed) throw routed.refused;
    const answer = await pipeline.answer(routed, {
      method: request.method,
      path: url.pathname,
      url: url.pathname + url.search,
      query: queryOf(url.search),
      contentType,
      header: (name) => request.headers.get(name) ?? undefined,
      body,
      is: (types) => types.find((type) => type === mediaTypeOf(contentType)) ?? false,
      client: "",
      setHeader: (name, value) => headers.set(name, value),
    });
    headers.set("content-type", answer.type);
    return new HttpResponse(answer.body, { status: answer.status, headers });
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    for (const [name, value] of Object.entries(error.headers)) headers.set(name, value);
    headers.set("content-type", "application/json; charset=utf-8");
    return new HttpResponse(JSON.stringify(error.body), { status: error.status, headers });
  }
}

function routeOf(pipeline: Pipeline, method: string, path: string): Routed | { refused: unknown } | undefined {
  try {
    const routed = pipeline.router.route(method, path);
    return routed && "allow" in routed ? undefined : routed;
  } catch (refused) {
    return { refused };
  }
}

/** The media type of a Content-Type header: `application/json; charset=utf-8` → `application/json`. */
function mediaTypeOf(contentType: string): string {
  return contentType.split(";")[0]!.trim().toLowerCase();
}

/** The JSON media types Koa's body parser reads (@koa/bodyparser's); it reads forms too. */
const JSON_TYPES = new Set([
  "application/json",
  "application/json-patch+json",
  "application/vnd.api+json",
  "application/csp-report",
  "application/reports+json",
  "application/scim+json",
]);

/** The body as the server's parser reads it: JSON (strict), a form's fields, or nothing. */
async function bodyOf(request: Request, contentType: string): Promise<unknown> {
  if (!["POST", "PUT", "PATCH"].includes(request.method)) return undefined;
  const type = mediaTypeOf(contentType);
  if (JSON_TYPES.has(type)) return parseJson(await request.text());
  if (type === "application/x-www-form-urlencoded")
    return Object.fromEntries(new URLSearchParams(await request.text()));
  return {};
}

// As the simulator's body parser reads JSON (strict): an empty body is {}, a body that does not start with an object or
// an array is refused.
const OBJECT_OR_ARRAY = /^[\x20\x09\x0a\x0d]*[[{]/;

function parseJson(text: string): unknown {
  if (text === "") return {};
  const invalid = (reason: string) => apiError(ERRORS.INVALID_JSON, {}, { errors: [reason] });
  if (!OBJECT_OR_ARRAY.test(text)) throw invalid("invalid JSON, only supports object and array");
  try {
    return JSON.parse(text);
  } catch (error) {
    throw invalid((error as Error).message);
  }
}

/** The query as Koa parses it (src/http/app.ts): a repeated parameter becomes an array; `__proto__` is a name too. */
function queryOf(search: string): Record<string, string | string[]> {
  const params = new URLSearchParams(search);
  return Object.fromEntries(
    [...new Set(params.keys())].map((key) => {
      const values = params.getAll(key);
      return [key, values.length <= 1 ? values[0]! : values];
    }),
  );
}

function escaped(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
}
