import type { ErrorBody, ErrorCode } from "./schemas/error.ts";

/** An answer to a caller's mistake (or a chain outage): a status and the JSON error body. */
export class ApiError extends Error {
  readonly status: number;
  readonly code: ErrorCode;
  readonly errors: string[];

  constructor(status: number, code: ErrorCode, message: string, errors: string[] = [message]) {
    super(message);
    this.status = status;
    this.code = code;
    this.errors = errors.length > 0 ? errors : [message];
  }

  get body(): ErrorBody {
    return { error: this.code, message: this.message, errors: this.errors };
  }
}

export const notFound = (what: string) => new ApiError(404, "NOT_FOUND", `${what} not found`);
