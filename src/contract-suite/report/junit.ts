import { withStatus, type CheckResult } from "../check.ts";
import type { FuzzReport } from "../fuzz/run.ts";
import type { SuiteReport } from "../suite.ts";

/** JUnit XML as CI servers read it: one testsuite per endpoint group, one testcase per check. */
export function junitXml(report: SuiteReport): string {
  const groups = new Map<string, CheckResult[]>();
  for (const result of report.results) groups.set(result.group, [...(groups.get(result.group) ?? []), result]);
  const count = (results: CheckResult[], status: CheckResult["status"]) => withStatus(results, status).length;
  const seconds = (ms: number) => (ms / 1000).toFixed(3);
  const lines = [
    `<?xml version="1.0" encoding="UTF-8"?>`,
    `<testsuites name="contract-test ${attr(report.baseUrl)}" tests="${report.results.length}" ` +
      `failures="${count(report.results, "failed")}" skipped="${count(report.results, "skipped")}" errors="0" ` +
      `time="${seconds(report.durationMs)}" timestamp="${report.startedAt.toISOString()}">`,
  ];
  for (const [group, results] of groups) {
    const time = results.reduce((sum, result) => sum + result.durationMs, 0);
    lines.push(
      `  <testsuite name="${attr(group)}" tests="${results.length}" failures="${count(results, "failed")}" ` +
        `skipped="${count(results, "skipped")}" errors="0" time="${seconds(time)}">`,
    );
    for (const result of results) lines.push(...testcase(result, seconds(result.durationMs)));
    lines.push(`  </testsuite>`);
  }
  lines.push(`</testsuites>`, "");
  return lines.join("\n");
}

function testcase(result: CheckResult, time: string): string[] {
  const open = `    <testcase classname="${attr(result.group)}" name="${attr(result.name)}" time="${time}"`;
  if (result.status === "passed") return [`${open}/>`];
  const details = result.violations
    .map((violation) =>
      violation.request ? `${violation.message}\n  request: ${violation.request}` : violation.message,
    )
    .join("\n");
  const inner =
    result.status === "skipped"
      ? `<skipped message="${attr(result.skipReason ?? "")}"/>`
      : `<failure message="${attr(result.violations[0]?.message ?? "failed")}" type="ContractViolation">${text(details)}</failure>`;
  return [`${open}>`, `      ${inner}`, `    </testcase>`];
}

// XML 1.0 allows tab, newline and carriage return among the control characters, and nothing else below 0x20.
const INVALID_XML =
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

function text(value: string): string {
  return value.replace(INVALID_XML, "\uFFFD").replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;");
}

function attr(value: string): string {
  return text(value)
    .replaceAll('"', "&quot;")
    .replaceAll("\n", "&#10;")
    .replaceAll("\r", "&#13;")
    .replaceAll("\t", "&#9;");
}

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
