// Every answer of the API, whatever carries it: the request routed by the route table, checked against its
// operation's schemas, read or written by its handler, and its answer checked.
import { SERVED_OPERATIONS, OPERATIONS, type Operation, type OperationId } from "../schemas/operations.ts";
import { AnswerBytes } from "./answer-bytes.ts";
import type { Answer, Handler, PipelineDeps, PipelineRequest, Checked } from "./handlers.ts";
import { collectionRead, collectionsRead, image, itemEventsRead, metadataRead } from "./reads.ts";
import { mintWrite } from "./mint.ts";
import { pathToRegexp } from "path-to-regexp";
import { apiError, ERRORS, methodNotAllowed } from "../core/errors.ts";
import type { TSchema } from "@sinclair/typebox";
import { requestValidator, responseValidator, type RequestPart } from "../schemas/validate.ts";

export type { Answer, Checked, Drawn, PipelineDeps, PipelineRequest } from "./handlers.ts";

/** The handler of each operation of the route table (one missing does not compile). */
const HANDLERS = {
  mintItem: mintWrite,
  getItemEvents: itemEventsRead,
  getCollection: collectionRead,
  listCollections: collectionsRead,
  getItemMetadata: metadataRead,
  getImagePng: image("png"),
  getImageSvg: image("svg"),
} satisfies Record<OperationId, (deps: PipelineDeps) => { kind: Handler<Operation>["kind"] }>;

/** Where the API's own paths are: any other path there that no operation serves is 404. */
export const API_SPACE = commonPrefix(OPERATIONS.map((operation) => operation.path));

const JSON_TYPE = "application/json; charset=utf-8";
const utf8 = new TextEncoder();
/** The answer checked against the operation's response schema, as the bytes of its JSON. */
const jsonBytes = (operation: Operation, answer: unknown) =>
  utf8.encode(JSON.stringify(checksOf(operation).response(answer)));

/**
 * Every answer of the API, whatever carries it (the Koa server, the MSW handlers): a request routed by the route table
 * (`router`), then `answer`: its credentials, path parameters and query checked against the operation's schemas, the
 * handler's read or write, and the answer checked against the response schema. A read's answer is checked and
 * serialized once per state of the read models it comes from and kept as bytes (`AnswerBytes`) until they change.
 * Refusals are thrown as the catalog's errors, for the transport's error exit to write.
 */
export class Pipeline {
  readonly router: Router = new Router(SERVED_OPERATIONS, API_SPACE);
  readonly #handlers: Map<Operation, Handler<Operation>>;
  readonly #answers = new AnswerBytes();

  constructor(deps: PipelineDeps) {
    this.#handlers = new Map(
      SERVED_OPERATIONS.map((operation) => [operation, HANDLERS[operation.operationId](deps) as Handler<Operation>]),
    );
  }

  async answer({ operation, params }: Routed, request: PipelineRequest): Promise<Answer> {
    const handler = this.#handlers.get(operation)!;
    const query = queryWithKey(operation, request.query, request.header);
    switch (handler.kind) {
      case "read": {
        // The bytes kept for this URL were made for the same request: it is not checked again.
        const kept = this.#answers.kept.get(request.url);
        const checked =
          (kept?.request as ReturnType<typeof checkRequest>) ?? checkRequest(operation, { params, query });
        const { from, answer } = await handler.read(checked);
        const bytes = this.#answers.bytes(request.url, kept, checked, from, () => jsonBytes(operation, answer()));
        return { status: 200, type: JSON_TYPE, body: bytes };
      }
      case "write": {
        const checked = checkRequest(operation, { params, query });
        const admitted = handler.admit(request, checked);
        const body = checksOf(operation).body?.(handler.bodyOf ? handler.bodyOf(request) : request.body);
        const answer = await handler.answer({ ...checked, body } as never, admitted);
        return { status: 200, type: JSON_TYPE, body: jsonBytes(operation, answer) };
      }
      case "media": {
        const drawn = handler.answer(checkRequest(operation, { params, query }), request);
        return { status: 200, type: drawn.type ?? operation.media!, body: drawn.bytes };
      }
    }
  }
}

function commonPrefix(paths: string[]): string {
  let prefix = paths[0] ?? "";
  for (const path of paths) while (!path.startsWith(prefix)) prefix = prefix.slice(0, -1);
  return prefix.slice(0, prefix.lastIndexOf("/") + 1);
}

/** The methods the server's router takes at all (@koa/router's): any other is refused (405) on every path. */
const KNOWN_METHODS = new Set(["HEAD", "OPTIONS", "GET", "PUT", "PATCH", "POST", "DELETE"]);

/** One operation's path as the router matches it, and the methods it takes there (HEAD wherever GET). */
export interface Route<Op extends Operation = Operation> {
  operation: Op;
  /** The whole path: any case, an optional trailing slash (as @koa/router compiles it, with path-to-regexp). */
  pattern: RegExp;
  params: string[];
  methods: string[];
}

/** A request routed: its operation and path parameters (percent-decoded where they decode). */
export interface Routed<Op extends Operation = Operation> {
  operation: Op;
  params: Record<string, string>;
}

/**
 * Method and path → operation, as the server routes them. A path an operation serves asked with a method it does not
 * take is 405 (OPTIONS: `allow`, the methods it takes); any other path under `space` (the API's) is 404; undefined: a
 * path that is none of the table's.
 */
export class Router<Op extends Operation = Operation> {
  readonly routes: readonly Route<Op>[];
  readonly #space: string;

  constructor(operations: readonly Op[], space: string) {
    this.#space = space;
    this.routes = operations.map((operation) => {
      const { regexp, keys } = pathToRegexp(operation.path, { sensitive: false, trailing: true });
      const method = operation.method.toUpperCase();
      return {
        operation,
        pattern: regexp,
        params: keys.map((key) => key.name),
        methods: method === "GET" ? ["HEAD", method] : [method],
      };
    });
  }

  route(method: string, path: string): Routed<Op> | { allow: string[] } | undefined {
    const matching = this.routes.filter((route) => route.pattern.test(path));
    if (matching.length === 0) {
      if (!path.startsWith(this.#space)) return undefined;
      if (!KNOWN_METHODS.has(method)) throw methodNotAllowed([]);
      throw apiError(ERRORS.NOT_FOUND, { what: `Route ${method} ${path}` });
    }
    const route = matching.find((candidate) => candidate.methods.includes(method));
    if (route) return { operation: route.operation, params: paramsOf(route, path) };
    const allow = [...new Set(matching.flatMap((candidate) => candidate.methods))];
    if (method === "OPTIONS") return { allow };
    throw methodNotAllowed(allow);
  }
}

function paramsOf(route: Route, path: string): Record<string, string> {
  // A loop, not flatMap and fromEntries: every request of the API pays for it.
  const captures = route.pattern.exec(path)!;
  const params: Record<string, string> = {};
  route.params.forEach((name, i) => {
    const capture = captures[i + 1];
    if (capture) params[name] = decodeParam(capture);
  });
  return params;
}

/** A path parameter as the router decodes it: left as it is when it is not valid percent-encoding. */
function decodeParam(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

// Compiled once per operation, on its first request (a start pays only for what it serves), however many apps are made.
const compiled = new WeakMap<Operation, ReturnType<typeof compile>>();

/** An operation's checks: each part of a request it takes, and its answer (bytes of another media type pass). */
export function checksOf(operation: Operation) {
  let checks = compiled.get(operation);
  if (!checks) compiled.set(operation, (checks = compile(operation)));
  return checks;
}

function compile(operation: Operation) {
  const request = (schema: TSchema | undefined, part: RequestPart) =>
    schema ? requestValidator(schema, part) : undefined;
  return {
    params: request(operation.params, "path"),
    query: request(operation.query, "query"),
    body: request(operation.body, "body"),
    response: operation.media ? (body: unknown) => body : responseValidator(operation.response),
  };
}

const API_KEY = "apiKey";

/**
 * The query as the operation's checks read it: where it takes an `apiKey`, the key may come in its header instead
 * (`keyHeader`, the original's `ALTURA_API_KEY`); both, naming different keys, is 400 naming both. Checked before any
 * kept answer is sent, so a read refuses it as well.
 */
function queryWithKey(
  operation: Operation,
  query: Record<string, unknown>,
  header: (name: string) => string | undefined,
): Record<string, unknown> {
  const name = operation.keyHeader;
  const fromHeader = name === undefined ? undefined : header(name);
  if (name === undefined || fromHeader === undefined || fromHeader === "") return query;
  const fromQuery = query[API_KEY];
  if (fromQuery === undefined || fromQuery === "") return { ...query, [API_KEY]: fromHeader };
  if (fromQuery !== fromHeader) throw apiError(ERRORS.API_KEY_CONFLICT, { name: API_KEY, header: name });
  return query;
}

/**
 * The credentials the operation's security names are required first (401), then its path parameters and query are
 * checked against its schemas (400 naming every problem).
 */
export function checkRequest<Op extends Operation>(
  operation: Op,
  { params, query }: { params: unknown; query: Record<string, unknown> },
): Omit<Checked<Op>, "body"> {
  const checks = checksOf(operation);
  for (const name of operation.authQuery ?? []) {
    const value = query[name];
    if (value === undefined || value === "")
      throw apiError(ERRORS.API_KEY_REQUIRED, { name, header: operation.keyHeader ?? "" });
  }
  return {
    params: checks.params?.(params) as Checked<Op>["params"],
    query: checks.query?.(query) as Checked<Op>["query"],
  };
}
