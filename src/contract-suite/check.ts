import type { Api, Exchange } from "./http.ts";
import type { Facts } from "./facts.ts";
import { CheckStopped } from "./stopped.ts";

/** One way the target broke the interface, and the request that showed it. */
export interface Violation {
  message: string;
  request?: string;
}

export interface CheckResult {
  group: string;
  name: string;
  status: "passed" | "failed" | "skipped";
  violations: Violation[];
  skipReason?: string;
  durationMs: number;
}

/** What a check sees: the target's API, facts shared across checks, and where to record violations. */
export interface Probe {
  api: Api;
  facts: Facts;
  fail(exchange: Exchange | undefined, message: string): void;
  skip(reason: string): never;
}

export interface Check {
  name: string;
  run(probe: Probe): Promise<void>;
}

export interface CheckGroup {
  name: string;
  checks: Check[];
}

export const check = (name: string, run: Check["run"]): Check => ({ name, run });

/** `send` once per run (per Api), though several checks judge what it answers. */
export function oncePerRun<T>(send: (probe: Probe) => Promise<T>): (probe: Probe) => Promise<T> {
  const sent = new WeakMap<Api, Promise<T>>();
  return (probe) => sent.get(probe.api) ?? sent.set(probe.api, send(probe)).get(probe.api)!;
}

export const withStatus = (results: CheckResult[], status: CheckResult["status"]): CheckResult[] =>
  results.filter((result) => result.status === status);

const MAX_VIOLATIONS_PER_CHECK = 12;

export async function runCheck(group: string, { name, run }: Check, api: Api, facts: Facts): Promise<CheckResult> {
  const violations: Violation[] = [];
  const started = performance.now();
  const probe: Probe = {
    api,
    facts,
    fail: (exchange, message) => void violations.push({ message, request: exchange?.request }),
    skip: (reason) => {
      throw new CheckStopped(reason, { skipped: true });
    },
  };
  try {
    await run(probe);
  } catch (error) {
    if (error instanceof CheckStopped && error.skipped)
      return { group, name, status: "skipped", violations: [], skipReason: error.message, durationMs: since(started) };
    violations.push(
      error instanceof CheckStopped
        ? { message: error.message, request: error.request }
        : { message: `the check itself crashed: ${(error as Error).stack ?? String(error)}` },
    );
  }
  const rest = violations.length - MAX_VIOLATIONS_PER_CHECK;
  if (rest > 0) violations.splice(MAX_VIOLATIONS_PER_CHECK, rest, { message: `… and ${rest} more like these` });
  return { group, name, status: violations.length ? "failed" : "passed", violations, durationMs: since(started) };
}

const since = (started: number) => performance.now() - started;
