import { runCheck, type CheckGroup, type CheckResult } from "./check.ts";
import { collectionChecks } from "./checks/collection.ts";
import { collectionsListChecks } from "./checks/collections-list.ts";
import { errorChecks } from "./checks/errors.ts";
import { itemEventsChecks } from "./checks/item-events.ts";
import { mintChecks } from "./checks/mint.ts";
import { Facts } from "./facts.ts";
import { Api } from "./http.ts";
import type { Target } from "./target.ts";

/** Reads first; the one write (with --allow-writes) last, so no read check sees it. */
export const CHECK_GROUPS: CheckGroup[] = [
  collectionsListChecks,
  collectionChecks,
  itemEventsChecks,
  errorChecks,
  mintChecks,
];

export interface SuiteReport {
  baseUrl: string;
  startedAt: Date;
  durationMs: number;
  results: CheckResult[];
}

export async function runContractSuite(
  target: Target,
  { onResult }: { onResult?: (result: CheckResult) => void } = {},
): Promise<SuiteReport> {
  const startedAt = new Date();
  const started = performance.now();
  const api = new Api(target.baseUrl, { apiKeyIn: target.apiKeyIn ?? "query" });
  const facts = new Facts(target, api);
  const results: CheckResult[] = [];
  for (const group of CHECK_GROUPS) {
    for (const check of group.checks) {
      const result = await runCheck(group.name, check, api, facts);
      results.push(result);
      onResult?.(result);
    }
  }
  return { baseUrl: api.baseUrl, startedAt, durationMs: performance.now() - started, results };
}
