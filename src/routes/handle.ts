import type { Context, Middleware } from "koa";
import type { Static, TSchema } from "@sinclair/typebox";
import { apiError, ERRORS } from "../core/errors.ts";
import type { ChainRead } from "../chain/registry.ts";
import type { Operation } from "../schemas/operations.ts";
import { requestValidator, responseValidator, type RequestPart } from "../schemas/validate.ts";
import type { AnswerBytes } from "./answer-bytes.ts";

type PartOf<Op, Key extends string> = Op extends { [K in Key]: infer S extends TSchema } ? Static<S> : undefined;

/** A request as its operation's schemas made it: typed, defaults filled in. */
export interface Checked<Op extends Operation> {
  params: PartOf<Op, "params">;
  query: PartOf<Op, "query">;
  body: PartOf<Op, "body">;
}

export interface Handler<Op extends Operation, Admitted> {
  /** Runs once the path and query passed and before the body is read: who calls, with what media type. */
  admit?(ctx: Context, request: Omit<Checked<Op>, "body">): Admitted;
  /** The body as its schema should see it, when the raw parsed body is not that. */
  bodyOf?(ctx: Context): unknown;
  answer(request: Checked<Op>, admitted: Admitted): Promise<Static<Op["response"]>>;
}

/** A read whose answer depends on nothing but its request and the read models it comes from. */
export interface ReadHandler<Op extends Operation> {
  /**
   * Brings the read models the answer depends on up to date (every one it looked at, found or not) and answers them
   * with how to make the answer from them as they are (which may throw, a 404).
   */
  read(
    request: Omit<Checked<Op>, "body">,
  ): Promise<{ from: readonly ChainRead["models"][]; answer(): Static<Op["response"]> }>;
}

/**
 * The one way an operation is served: its credentials are required, then its path
 * parameters, query and body are checked against its schemas, and what the handler
 * answers is checked against its response schema before it is sent (bytes of another media
 * type, an image, are sent as they are).
 */
export function handle<Op extends Operation, Admitted = undefined>(
  operation: Op,
  handler: Handler<Op, Admitted>,
): Middleware {
  return async (ctx) => {
    const checks = checksOf(operation);
    const { params, query } = checkedRequest(operation, ctx);
    const admitted = handler.admit?.(ctx, { params, query }) as Admitted;
    const body = checks.body?.(handler.bodyOf ? handler.bodyOf(ctx) : ctx.request.body) as Checked<Op>["body"];
    const answer = await handler.answer({ params, query, body }, admitted);
    if (operation.media) ctx.type = operation.media;
    ctx.body = operation.media ? answer : checks.response(answer);
  };
}

/**
 * A read served as `handle` serves it, but as bytes: its answer is checked against the response schema and serialized
 * once per state of the read models it comes from, then the same bytes are sent (`answers`) until those change.
 */
export function handleRead<Op extends Operation>(
  operation: Op,
  handler: ReadHandler<Op>,
  answers: AnswerBytes,
): Middleware {
  return async (ctx) => {
    const kept = answers.kept(ctx.url);
    const request = (kept?.request as Omit<Checked<Op>, "body"> | undefined) ?? checkedRequest(operation, ctx);
    const { from, answer } = await handler.read(request);
    ctx.set("content-type", JSON_TYPE);
    ctx.body = answers.bytes(ctx.url, kept, request, from, () =>
      Buffer.from(JSON.stringify(checksOf(operation).response(answer()))),
    );
  };
}

/** What Koa names a JSON body. */
const JSON_TYPE = "application/json; charset=utf-8";

function checkedRequest<Op extends Operation>(operation: Op, ctx: Context) {
  // Compiled on the first request, not at start: a start pays only for what it serves.
  const checks = checksOf(operation);
  for (const name of operation.authQuery ?? []) {
    const value = ctx.query[name];
    if (value === undefined || value === "") throw apiError(ERRORS.API_KEY_REQUIRED, { name });
  }
  const params = checks.params?.(ctx.params) as Checked<Op>["params"];
  const query = checks.query?.(ctx.query) as Checked<Op>["query"];
  return { params, query };
}

interface Checks {
  params?: (input: unknown) => unknown;
  query?: (input: unknown) => unknown;
  body?: (input: unknown) => unknown;
  response: (body: unknown) => unknown;
}

// Compiled once per operation, however many apps are made.
const compiled = new WeakMap<Operation, Checks>();

function checksOf(operation: Operation): Checks {
  let checks = compiled.get(operation);
  if (!checks) {
    const request = (schema: TSchema | undefined, part: RequestPart) =>
      schema ? requestValidator(schema, part) : undefined;
    checks = {
      params: request(operation.params, "path"),
      query: request(operation.query, "query"),
      body: request(operation.body, "body"),
      response: operation.media ? (body) => body : responseValidator(operation.response),
    };
    compiled.set(operation, checks);
  }
  return checks;
}
