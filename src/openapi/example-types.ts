import { apiError, ERRORS } from "../core/errors.ts";
import type { ErrorBody } from "../schemas/error.ts";

// What an example in the OpenAPI document is, and the examples of what the HTTP server itself refuses.

/** A request as the document shows it: path parameters, query, body. */
export interface ExampleRequest {
  params?: Record<string, string | number>;
  query?: Record<string, string | number>;
  body?: unknown;
  /** Sent as is with this content type instead of `body` as JSON. */
  raw?: { contentType: string; text: string };
}

export interface ErrorExample {
  summary: string;
  /**
   * The request that answers it; none for what one request alone cannot cause (a chain outage, a stalled chain, a run
   * of bad keys).
   */
  request?: ExampleRequest;
  body: ErrorBody;
}

export interface OperationExamples {
  request: ExampleRequest;
  /** The 200 answer to `request` (absent for the mint, whose hash and token ids differ per run). */
  response?: unknown;
  errors: Record<number, ErrorExample>;
}

/**
 * What the HTTP server answers before any operation (operations.ts, SERVER_REFUSALS), as bodies; a raw request causes
 * each (test/http/error-exit.test.ts).
 */
export const SERVER_REFUSAL_EXAMPLES: Record<number, ErrorExample> = {
  400: {
    summary: "an HTTP/1.1 request without a Host header",
    body: apiError(ERRORS.MISSING_HOST).body,
  },
  408: {
    summary: "headers that took too long to arrive",
    body: apiError(ERRORS.REQUEST_TIMEOUT).body,
  },
  417: {
    summary: "Expect: foo",
    body: apiError(ERRORS.EXPECTATION_FAILED, { expect: "foo" }).body,
  },
  431: {
    summary: "headers over 16 kB",
    body: apiError(ERRORS.HEADERS_TOO_LARGE).body,
  },
};
