import { withStatus, type CheckResult } from "../check.ts";
import type { FuzzReport } from "../fuzz/run.ts";
import type { SuiteReport } from "../suite.ts";

const MARK = { passed: "✓", failed: "✗", skipped: "-" } as const;

/** One line per check as it finishes. */
export function progressLine(result: CheckResult): string {
  const suffix = result.status === "skipped" ? `  (skipped: ${result.skipReason})` : "";
  return `  ${MARK[result.status]} ${result.group} › ${result.name}${suffix}`;
}

/** What a person reads at the end: every violation with the request that showed it, then the totals. */
export function summary(report: SuiteReport): string {
  const failed = withStatus(report.results, "failed");
  const lines: string[] = [];
  if (failed.length) {
    lines.push(`Violations of the interface at ${report.baseUrl}:`, "");
    for (const result of failed) {
      lines.push(`✗ ${result.group} › ${result.name}`);
      for (const violation of result.violations) {
        lines.push(`    ${violation.message}`);
        if (violation.request) lines.push(`      request: ${violation.request}`);
      }
      lines.push("");
    }
  }
  const skipped = withStatus(report.results, "skipped");
  if (skipped.length) {
    lines.push("Not checked:");
    for (const result of skipped) lines.push(`- ${result.group} › ${result.name}: ${result.skipReason}`);
    lines.push("");
  }
  lines.push(
    `contract-test: ${withStatus(report.results, "passed").length} passed, ${failed.length} failed, ${skipped.length} skipped (${(report.durationMs / 1000).toFixed(1)} s, ${report.baseUrl})`,
  );
  return lines.join("\n");
}

/** What a fuzz run found, for a terminal or a CI log: the statuses seen, then each finding with its curl line. */
export function fuzzSummary(report: FuzzReport): string {
  const statuses = Object.entries(report.statuses)
    .map(([status, count]) => `${status}×${count}`)
    .join(", ");
  const lines = [
    `${report.requests} requests (seed ${report.seed}) to ${report.operations.join(", ")}: ` +
      `${statuses || "no answers"}; ${report.serverErrors} answered 5xx; ${report.mints} mint(s) accepted and read back`,
  ];
  for (const finding of report.findings) {
    lines.push("", `✗ ${finding.operation}`, ...finding.problems.map((problem) => `    ${problem}`));
    if (finding.curl) lines.push(`    ${finding.curl}`);
  }
  lines.push(
    "",
    report.findings.length
      ? `Fuzz: ${report.findings.length} finding(s); repeat with --seed ${report.seed}`
      : "Fuzz: no finding",
  );
  return lines.join("\n");
}
