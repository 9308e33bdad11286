import type { ErrorBody, ErrorCode } from "./schemas/error.ts";

/** An answer to a caller's mistake (or a chain outage): a status and the JSON error body. */
export class ApiError extends Error {
  readonly status: number;
  readonly code: ErrorCode;
  readonly errors: string[];
  /** Fields the body carries beside the three every error has (a pending mint's `txHash`). */
  readonly extra: Omit<ErrorBody, "error" | "message" | "errors">;

  constructor(
    status: number,
    code: ErrorCode,
    message: string,
    errors: string[] = [message],
    extra: ApiError["extra"] = {},
  ) {
    super(message);
    this.status = status;
    this.code = code;
    this.errors = errors.length > 0 ? errors : [message];
    this.extra = extra;
  }

  get body(): ErrorBody {
    return { error: this.code, message: this.message, errors: this.errors, ...this.extra };
  }
}

export const notFound = (what: string, errors?: string[]) =>
  new ApiError(404, "NOT_FOUND", `${what} not found`, errors);

/** The body of what Node's HTTP parser refuses before the app sees it. */
export function clientErrorBody(status: number, message: string): ErrorBody {
  const code: ErrorCode =
    status === 431 ? "HEADERS_TOO_LARGE" : status === 417 ? "EXPECTATION_FAILED" : "VALIDATION_FAILED";
  return new ApiError(status, code, message).body;
}
