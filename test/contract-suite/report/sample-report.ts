import type { CheckResult } from "../../../src/contract-suite/check.ts";
import type { SuiteReport } from "../../../src/contract-suite/suite.ts";

export const result = (overrides: Partial<CheckResult>): CheckResult => ({
  group: "errors",
  name: "a check",
  status: "passed",
  violations: [],
  durationMs: 1.5,
  ...overrides,
});

/** A report of three checks: one passed, one failed (its name and message need escaping in XML), one skipped. */
export const report: SuiteReport = {
  baseUrl: "https://staging.example",
  startedAt: new Date("2026-01-02T03:04:05Z"),
  durationMs: 1234,
  results: [
    result({ name: "passes" }),
    result({
      name: `fails <with> "quotes" & more`,
      status: "failed",
      violations: [
        {
          message: "answered 500, expected 400 <b>\u0001",
          request: "GET https://staging.example/api/v2/collection?perPage=0&page=1",
        },
      ],
    }),
    result({ group: "writes", name: "skips", status: "skipped", skipReason: "writes are off" }),
  ],
};
