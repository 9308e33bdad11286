// The vocabulary of the error catalog (./error-catalog.ts): the codes an error body may carry, and what one error is.

/** The `error` field of every error body. */
export const ERROR_CODES = [
  "VALIDATION_FAILED",
  "INVALID_JSON",
  "UNAUTHORIZED",
  "FORBIDDEN",
  "NOT_FOUND",
  "CONFLICT",
  "METHOD_NOT_ALLOWED",
  "PAYLOAD_TOO_LARGE",
  "UNSUPPORTED_MEDIA_TYPE",
  "CONTRACT_RULE",
  "CHAIN_UNAVAILABLE",
  "MINT_PENDING",
  "MINT_DROPPED",
  "WRITE_PENDING",
  "WRITE_DROPPED",
  "NONCE_CONFLICT",
  "TRANSACTION_REFUSED",
  "WALLET_UNFUNDED",
  "SHUTTING_DOWN",
  "TOO_MANY_REQUESTS",
  "HEADERS_TOO_LARGE",
  "EXPECTATION_FAILED",
  "STORAGE_FULL",
  "CONTRACT_VIOLATION",
  "UPSTREAM_UNAVAILABLE",
  "INTERNAL",
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];

export interface ErrorDescriptor {
  status: number;
  code: ErrorCode;
  /** The body's `message`, with `{name}` placeholders. */
  message: string;
  /** What it means, for the documents (one sentence, the caller's view). */
  means: string;
}

/** One entry of the catalog, its status, code and message kept as literal types. */
export const catalogEntry = <const Status extends number, const Code extends ErrorCode, const Message extends string>(
  status: Status,
  code: Code,
  message: Message,
  means: string,
) => ({ status, code, message, means });
