import { junitXml } from "../contract-suite/report/junit.ts";
import type { CheckResult } from "../contract-suite/check.ts";

/** One exchange whose answer broke the interface, as every report of it names it (secrets already masked). */
export interface Finding {
  /** The request log's id of the exchange. */
  requestId: number;
  operation: string;
  /** `GET /api/v2/collection?apiKey=abcd…`: method, path and masked query. */
  request: string;
  status: number;
  violations: string[];
}

/**
 * What the proxy checked, for the JUnit report written at exit: every finding a failed case of its operation's
 * suite, and each operation one passing case for the answers that broke nothing.
 */
export class Findings {
  readonly #startedAt = new Date();
  readonly #started = performance.now();
  readonly #found: Finding[] = [];
  readonly #checked = new Map<string, number>();

  add(operation: string, finding: Finding | undefined): void {
    if (finding) this.#found.push(finding);
    else this.#checked.set(operation, (this.#checked.get(operation) ?? 0) + 1);
  }

  get found(): readonly Finding[] {
    return this.#found;
  }

  junit(upstream: string): string {
    const passed: CheckResult[] = [...this.#checked].map(([operation, count]) => ({
      group: `proxy ${operation}`,
      name: `${count} answer${count === 1 ? "" : "s"} as documented`,
      status: "passed",
      violations: [],
      durationMs: 0,
    }));
    const failed: CheckResult[] = this.#found.map((finding) => ({
      group: `proxy ${finding.operation}`,
      name: `#${finding.requestId} ${finding.request} answered ${finding.status}`,
      status: "failed",
      violations: finding.violations.map((message) => ({ message, request: finding.request })),
      durationMs: 0,
    }));
    const results = [...failed, ...passed].sort((a, b) => a.group.localeCompare(b.group));
    return junitXml({
      baseUrl: upstream,
      startedAt: this.#startedAt,
      durationMs: performance.now() - this.#started,
      results,
    });
  }
}
