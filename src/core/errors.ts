import type { ErrorCode, ErrorDescriptor } from "./error-catalog.ts";
import { ERRORS } from "./error-catalog.ts";

export { ERROR_CODES, ERRORS, type ErrorCode, type ErrorDescriptor, type ErrorName } from "./error-catalog.ts";

/** The JSON body of every error (`schemas/error.ts` is its schema). */
export interface ErrorBody {
  error: ErrorCode;
  message: string;
  /** One line per problem: what existing clients print. */
  errors: string[];
  /** A write sent but not (yet) mined, or dropped: its transaction. */
  txHash?: string;
}

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
}

/** An answer to a caller's mistake (or a chain outage): an error of the catalog, with its details. */
export class ApiError extends Error {
  readonly descriptor: ErrorDescriptor;
  readonly errors: string[];
  readonly txHash: string | undefined;

  constructor(descriptor: ErrorDescriptor, params: Record<string, string | number | bigint> = {}, detail: Detail = {}) {
    super(descriptor.message.replace(/\{(\w+)\}/g, (_, name: string) => String(params[name] ?? `{${name}}`)));
    this.name = "ApiError";
    this.descriptor = descriptor;
    this.errors = detail.errors && detail.errors.length > 0 ? detail.errors : [this.message];
    this.txHash = detail.txHash;
  }

  get status(): number {
    return this.descriptor.status;
  }

  get code(): ErrorCode {
    return this.descriptor.code;
  }

  get body(): ErrorBody {
    return {
      error: this.code,
      message: this.message,
      errors: this.errors,
      ...(this.txHash !== undefined ? { txHash: this.txHash } : {}),
    };
  }
}

/** The catalog's error `D` with its placeholders filled in, to throw or answer. */
export function apiError<D extends ErrorDescriptor>(descriptor: D, ...rest: [...Params<D>, Detail?]): ApiError {
  const [params, detail] = rest as unknown as [
    Record<string, string | number | bigint> | undefined,
    Detail | undefined,
  ];
  return new ApiError(descriptor, params ?? {}, detail);
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
