import type { Static, TSchema } from "@sinclair/typebox";
import { apiError, ERRORS } from "../core/errors.ts";
import type { Operation } from "../schemas/operations.ts";
import { requestValidator, responseValidator, type RequestPart } from "../schemas/validate.ts";

type PartOf<Op, Key extends string> = Op extends { [K in Key]: infer S extends TSchema } ? Static<S> : undefined;

/** A request as its operation's schemas made it: typed, defaults filled in. */
export interface Checked<Op extends Operation> {
  params: PartOf<Op, "params">;
  query: PartOf<Op, "query">;
  body: PartOf<Op, "body">;
}

/** An operation's checks: each part of a request it takes, and its answer (bytes of another media type pass). */
export interface Checks {
  params?: (input: unknown) => unknown;
  query?: (input: unknown) => unknown;
  body?: (input: unknown) => unknown;
  response: (body: unknown) => unknown;
}

// Compiled once per operation, on its first request (a start pays only for what it serves), however many apps are made.
const compiled = new WeakMap<Operation, Checks>();

export function checksOf(operation: Operation): Checks {
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

const API_KEY = "apiKey";

/**
 * The query as the operation's checks read it: where it takes an `apiKey`, the key may come in its header instead
 * (`keyHeader`, the original's `ALTURA_API_KEY`); both, naming different keys, is 400 naming both. Checked before any
 * kept answer is sent, so a read refuses it as well.
 */
export function queryWithKey(
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
