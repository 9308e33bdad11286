import type { CheckResult } from "../check.ts";
import type { FuzzReport } from "../fuzz/run.ts";
import type { SuiteReport } from "../suite.ts";

// What the suite reports in JUnit when it ran no checks: a fuzz run (a test case per operation),
// or a set-up that failed (one failed test case saying why). CI always finds a report.

/**
 * A fuzz run as a report: a test case per operation fuzzed (failed with its findings), and one for the world's digest.
 */
export function fuzzAsSuite(report: FuzzReport, baseUrl: string, startedAt: Date, durationMs: number): SuiteReport {
  const group = `fuzz (--seed ${report.seed}, ${report.requests} requests)`;
  const names = [...report.operations, "(the world)"];
  const results: CheckResult[] = names.map((name) => {
    const found = report.findings.filter((finding) => finding.operation === name);
    return {
      group,
      name:
        name === "(the world)"
          ? "the world changed only by the run's own mints"
          : `${name}: every answer as documented`,
      status: found.length > 0 ? "failed" : "passed",
      violations: found.map(({ problems, curl }) => ({
        message: problems.join("; "),
        ...(curl ? { request: curl } : {}),
      })),
      durationMs: 0,
    };
  });
  return { baseUrl, startedAt, durationMs, results };
}

/** The suite could not run: one failed test case saying why. */
export function setupFailureAsSuite(baseUrl: string, why: string, startedAt: Date): SuiteReport {
  return {
    baseUrl,
    startedAt,
    durationMs: Date.now() - startedAt.getTime(),
    results: [
      {
        group: "set-up",
        name: "the target can be tested",
        status: "failed",
        violations: [{ message: why }],
        durationMs: 0,
      },
    ],
  };
}
