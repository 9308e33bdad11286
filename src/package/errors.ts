// The errors the package's clients throw, each by its own name (a test runner prints `ControlError: 409 …`, and
// `instanceof` tells them apart). They are the caller's errors, not the API's: the API's own are its JSON bodies.
import type { LoggedRequest } from "../schemas/control.ts";
import type { ErrorBody } from "../schemas/error.ts";
import type { SimEvent } from "./sim-event.ts";

/** An answer of the control API other than 200, with its JSON error body. */
export class ControlError extends Error {
  override readonly name = "ControlError";
  readonly status: number;
  readonly body: ErrorBody;

  constructor(status: number, body: ErrorBody) {
    super(`${status} ${body.error}: ${body.errors.join("; ")}`);
    this.status = status;
    this.body = body;
  }
}

/** No event ended the wait (or the loop) in time; `seen` holds what came meanwhile, oldest first. */
export class EventTimeoutError extends Error {
  override readonly name = "EventTimeoutError";
  readonly seen: SimEvent[];

  constructor(message: string, seen: SimEvent[]) {
    super(message);
    this.seen = seen;
  }
}

/** The request log does not hold what was expected; `matched` are the requests that did match, `closest` the nearest. */
export class RequestVerificationError extends Error {
  override readonly name = "RequestVerificationError";
  readonly matched: LoggedRequest[];
  readonly closest: LoggedRequest[];

  constructor(message: string, matched: LoggedRequest[], closest: LoggedRequest[]) {
    super(message);
    this.matched = matched;
    this.closest = closest;
  }
}
