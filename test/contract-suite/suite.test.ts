import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCheck, type CheckResult } from "../../src/contract-suite/check.ts";
import { Facts } from "../../src/contract-suite/facts.ts";
import { Api } from "../../src/contract-suite/http.ts";
import { CHECK_GROUPS, failedChecks, runContractSuite } from "../../src/contract-suite/suite.ts";
import { BREAKAGES, CHECK_NAMES, CHECK_TARGETS, type BreakageName } from "./breakages.ts";
import { startBrokenTarget, type BrokenTarget } from "./broken-target.ts";
import { startSnapshotTarget, type SnapshotTarget } from "./snapshot-target.ts";

// The contract suite fails on every defect it names: each of its checks passes against a target that keeps the
// interface, and fails against each seeded broken target breakages.ts names for it. The target is the MSW handlers'
// answers of the default world (test/contract-suite/snapshot-target.ts), fast enough for `npm run mutation`;
// test/contract-suite/broken-targets.test.ts runs broken targets in front of the simulator itself.

let snapshot: SnapshotTarget;
const proxies: BrokenTarget[] = [];

beforeAll(async () => {
  snapshot = await startSnapshotTarget();
});

afterAll(async () => {
  await Promise.all(proxies.map((proxy) => proxy.close()));
  await snapshot?.close();
});

/** The checks named, run in the suite's order against `baseUrl` (a fresh run: nothing remembered from another). */
async function runChecks(baseUrl: string, names: ReadonlySet<string>): Promise<CheckResult[]> {
  const target = { ...snapshot.target, baseUrl };
  const api = new Api(baseUrl);
  const facts = new Facts(target, api);
  const results: CheckResult[] = [];
  for (const group of CHECK_GROUPS)
    for (const check of group.checks)
      if (names.has(`${group.name} › ${check.name}`)) results.push(await runCheck(group.name, check, api, facts));
  return results;
}

const breakageNames = [...new Set(Object.values(CHECK_TARGETS).flat())].sort();

describe("the contract suite", () => {
  it("names a seeded broken target for each of its checks, and for no check it does not have", () => {
    expect(new Set(CHECK_NAMES).size).toBe(CHECK_NAMES.length);
    expect(Object.keys(CHECK_TARGETS).sort()).toEqual([...CHECK_NAMES].sort());
    for (const [check, breakages] of Object.entries(CHECK_TARGETS)) expect(breakages.length, check).toBeGreaterThan(0);
  });

  it("passes, every check, against a target that keeps the interface", async () => {
    const report = await runContractSuite(snapshot.target);
    expect(report.results.map((result) => `${result.group} › ${result.name}`)).toEqual(CHECK_NAMES);
    expect(failedChecks(report)).toEqual([]);
    expect(report.results.filter((result) => result.status !== "passed")).toEqual([]);
  });

  it.each(breakageNames)("fails each check the seeded defect %s breaks", async (name) => {
    const proxy = await startBrokenTarget(snapshot.url, BREAKAGES[name as BreakageName]);
    proxies.push(proxy);
    const checks = new Set(CHECK_NAMES.filter((check) => CHECK_TARGETS[check]!.includes(name as BreakageName)));
    const results = await runChecks(proxy.url, checks);
    expect(results.map((result) => `${result.group} › ${result.name}`)).toEqual([...checks]);
    const held = results.filter((result) => result.status !== "failed");
    expect(held.map(({ name: check, status }) => `${check}: ${status}`)).toEqual([]);
    for (const result of results) expect(result.violations.length, result.name).toBeGreaterThan(0);
  });
});
