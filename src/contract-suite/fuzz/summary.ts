import type { FuzzReport } from "./run.ts";

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
