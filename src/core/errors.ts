import { ERRORS, type ErrorCode, type ErrorDescriptor } from "./error-catalog.ts";
import type { StartErrorDescriptor } from "./start-errors.ts";

export { ERROR_CODES, ERRORS, type ErrorCode, type ErrorDescriptor, type ErrorName } from "./error-catalog.ts";
export { START_ERRORS, type StartErrorDescriptor } from "./start-errors.ts";

// The one error model: an error of the catalog, named by its descriptor, with its parameters and detail lines. Any
// layer throws it (`apiError(ERRORS.X, params, { errors })`); the descriptor alone decides the HTTP status, and the
// one error exit (src/http/error-exit.ts) writes its body. Why a command refuses to start is a StartError, its
// descriptor deciding the exit code.

/** The `{name}`s of a message template. */
type Placeholders<Message extends string> = Message extends `${string}{${infer Name}}${infer Rest}`
  ? Name | Placeholders<Rest>
  : never;
type Params<D extends ErrorDescriptor> = [Placeholders<D["message"]>] extends [never]
  ? [params?: Record<string, never>]
  : [params: Record<Placeholders<D["message"]>, string | number | bigint>];

interface Detail {
  /** One line per problem; the message alone when none are given. */
  errors?: string[];
  txHash?: string;
  /** Headers the answer carries beside its body (a 405's `Allow`). */
  headers?: Readonly<Record<string, string>>;
}

type Values = Record<string, string | number | bigint>;

/**
 * An answer to a caller's mistake, or a failure of what the simulator stands on (a chain, a node, the journal's
 * disk): an error of the catalog, with its details.
 */
export class ApiError extends Error {
  readonly descriptor: ErrorDescriptor;
  readonly params: Readonly<Values>;
  readonly errors: string[];
  readonly txHash: string | undefined;
  readonly headers: Readonly<Record<string, string>>;

  constructor(descriptor: ErrorDescriptor, params: Values = {}, detail: Detail = {}) {
    super(descriptor.message.replace(/\{(\w+)\}/g, (_, name: string) => String(params[name] ?? `{${name}}`)));
    this.name = "ApiError";
    this.descriptor = descriptor;
    this.params = params;
    this.errors = detail.errors && detail.errors.length > 0 ? detail.errors : [this.message];
    this.txHash = detail.txHash;
    this.headers = detail.headers ?? {};
  }

  /** The same error told with other lines (what the caller knows that the thrower did not: a fragment's entry). */
  withErrors(errors: string[]): ApiError {
    return new ApiError(this.descriptor, this.params, { errors, headers: this.headers, txHash: this.txHash });
  }

  get status(): number {
    return this.descriptor.status;
  }

  get code(): ErrorCode {
    return this.descriptor.code;
  }

  /** The JSON body of every error (`schemas/error.ts` is its schema). */
  get body() {
    return {
      error: this.code,
      message: this.message,
      errors: this.errors,
      ...(this.txHash !== undefined ? { txHash: this.txHash } : {}),
    };
  }
}

/** Whether `thrown` is an error of the catalog (of `descriptor`, when given). */
export function isApiError(thrown: unknown, descriptor?: ErrorDescriptor): thrown is ApiError {
  return thrown instanceof ApiError && (descriptor === undefined || thrown.descriptor === descriptor);
}

/** The catalog's error `thrown` is, or that a library (viem, a transport) wrapped as its cause; else undefined. */
export function apiErrorIn(thrown: unknown): ApiError | undefined {
  let inner = thrown;
  for (let depth = 0; inner instanceof Error && depth < 10; depth += 1, inner = inner.cause)
    if (inner instanceof ApiError) return inner;
  return undefined;
}

/** A failure in one line, as a log or a refusal to start quotes it: a catalog error's first detail line. */
export function oneLine(thrown: unknown): string {
  if (thrown instanceof ApiError) return thrown.errors[0]!;
  return String((thrown as Error)?.message ?? thrown).split("\n")[0]!;
}

/** Why a command refuses to start, in one line (and a line per problem); its descriptor gives the exit code. */
export class StartError extends Error {
  readonly descriptor: StartErrorDescriptor;
  /** One line per problem, where there are several (a scenario file's); the message tells them too. */
  readonly problems: string[];

  constructor(descriptor: StartErrorDescriptor, message: string, problems: string[] = []) {
    super(message);
    this.name = "StartError";
    this.descriptor = descriptor;
    this.problems = problems;
  }
}

/** Whether `thrown` is a refusal to start (of `descriptor`, when given). */
export function isStartError(thrown: unknown, descriptor?: StartErrorDescriptor): thrown is StartError {
  return thrown instanceof StartError && (descriptor === undefined || thrown.descriptor === descriptor);
}

/** The catalog's error `D` with its placeholders filled in, to throw or answer. */
export function apiError<D extends ErrorDescriptor>(descriptor: D, ...rest: [...Params<D>, Detail?]): ApiError {
  const [params, detail] = rest as unknown as [Values | undefined, Detail | undefined];
  return new ApiError(descriptor, params ?? {}, detail);
}

/** 404: `value`, unless there is none (undefined, or false from a removal that found nothing); `what` names it. */
export function found<T>(value: T | undefined, what: string): Exclude<T, false> {
  if (value === undefined || value === false) throw apiError(ERRORS.NOT_FOUND, { what });
  return value as Exclude<T, false>;
}

/** 409: `what` conflicts with the world as it is, each line saying how. */
export function conflict(what: string, ...errors: string[]): ApiError {
  return apiError(ERRORS.CONFLICT, { what }, { errors });
}

/** 405, with the methods the path takes in `Allow` (RFC 9110: every 405 carries one; empty where it takes none). */
export function methodNotAllowed(allow: readonly string[]): ApiError {
  return apiError(ERRORS.METHOD_NOT_ALLOWED, {}, { headers: { allow: allow.join(", ") } });
}

/**
 * An error of `status` with its own message (a fault rule's): the code of the catalog's first entry with that status,
 * else INTERNAL's.
 */
export function descriptorForStatus(status: number, message: string): ErrorDescriptor {
  const first = Object.values(ERRORS).find((descriptor) => descriptor.status === status);
  return { status, code: first?.code ?? "INTERNAL", message, means: first?.means ?? ERRORS.INTERNAL.means };
}

/** The codes the catalog answers with `status`. */
export function codesOf(status: number): ErrorCode[] {
  return [...new Set(Object.values(ERRORS).flatMap((error) => (error.status === status ? [error.code] : [])))];
}
