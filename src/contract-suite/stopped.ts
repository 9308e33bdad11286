/**
 * A check (or a fuzzed request) stopped before its end: skipped, unable to check (its request failed, or a fact it
 * needed could not be had: the message says which, the report names the request), or with what it found wrong
 * (`problems`).
 */
export class CheckStopped extends Error {
  readonly skipped: boolean;
  readonly request: string | undefined;
  readonly problems: string[];

  constructor(message: string, detail: { skipped?: boolean; request?: string; problems?: string[] } = {}) {
    super(message);
    this.name = "CheckStopped";
    this.skipped = detail.skipped ?? false;
    this.request = detail.request;
    this.problems = detail.problems ?? [message];
  }
}

/** A fact a check needed could not be had: the check fails on it, naming the request. */
export function cannotCheck(message: string, request?: string): CheckStopped {
  return new CheckStopped(`cannot check: ${message}`, { request });
}
