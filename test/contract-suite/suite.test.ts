import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCheck, withStatus, type CheckResult } from "../../src/contract-suite/check.ts";
import { Facts } from "../../src/contract-suite/facts.ts";
import { Api } from "../../src/contract-suite/http.ts";
import { CHECK_GROUPS, runContractSuite } from "../../src/contract-suite/suite.ts";
import type { Target } from "../../src/contract-suite/target.ts";
import { BREAKAGES, CHECK_NAMES, CHECK_TARGETS, type BreakageName } from "./breakages.ts";
import { startBrokenTarget, type BrokenTarget } from "./broken-target.ts";
import { startSnapshotTarget, type SnapshotTarget } from "./snapshot-target.ts";

// The contract suite fails on every defect it names: each of its checks passes against a target that keeps the
// interface, and fails against each seeded broken target breakages.ts names for it. The target is the MSW handlers'
// answers of the default world (test/contract-suite/snapshot-target.ts), fast enough for `npm run mutation`;
// test/contract-suite/broken-targets.test.ts runs broken targets in front of the simulator itself.

let snapshot: SnapshotTarget;
const proxies: BrokenTarget[] = [];
const targets: SnapshotTarget[] = [];

beforeAll(async () => {
  snapshot = await startSnapshotTarget();
});

afterAll(async () => {
  await Promise.all(proxies.map((proxy) => proxy.close()));
  await Promise.all(targets.map((target) => target.close()));
  await snapshot?.close();
});

/** A target of its own, for a run that mints: the mock's mints stay in its world, and no other run sees them. */
async function freshTarget(): Promise<SnapshotTarget> {
  const target = await startSnapshotTarget();
  targets.push(target);
  return target;
}

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
const WRITES = "POST /api/v2/item/new (writes) › ";

describe("the contract suite", () => {
  it("names a seeded broken target for each of its checks, and for no check it does not have", () => {
    expect(new Set(CHECK_NAMES).size).toBe(CHECK_NAMES.length);
    expect(Object.keys(CHECK_TARGETS).sort()).toEqual([...CHECK_NAMES].sort());
    for (const [check, breakages] of Object.entries(CHECK_TARGETS)) expect(breakages.length, check).toBeGreaterThan(0);
  });

  it("passes, every check, against a target that keeps the interface", async () => {
    const report = await runContractSuite((await freshTarget()).target);
    expect(report.results.map((result) => `${result.group} › ${result.name}`)).toEqual(CHECK_NAMES);
    expect(withStatus(report.results, "failed")).toEqual([]);
    expect(report.results.filter((result) => result.status !== "passed")).toEqual([]);
  });

  it("skips the writes unless they are allowed, and what needs an API key without one", async () => {
    const skipped = async (target: Partial<Target>) => {
      const report = await runContractSuite({ ...snapshot.target, ...target });
      expect(withStatus(report.results, "failed")).toEqual([]);
      return report.results.filter((r) => r.status === "skipped").map((r) => `${r.name}: ${r.skipReason}`);
    };
    const invalidBody = "a mint with an invalid body (malformed recipient, no item) answers";
    const mints = [
      "a valid mint answers 200 with a txHash",
      "the mint answer is a MintResponse body",
      "the minted item's history shows the mint right away",
    ];
    expect(await skipped({ allowWrites: false, apiKey: undefined })).toEqual([
      `${invalidBody} 400: needs an API key (--api-key / API_KEY)`,
      `${invalidBody} the JSON error body {error, message, errors[]}: needs an API key (--api-key / API_KEY)`,
      ...mints.map((name) => `${name}: writes are off; pass --allow-writes to mint on the target`),
    ]);
    expect(await skipped({ apiKey: undefined })).toEqual([
      `${invalidBody} 400: needs an API key (--api-key / API_KEY)`,
      `${invalidBody} the JSON error body {error, message, errors[]}: needs an API key (--api-key / API_KEY)`,
      ...mints.map(
        (name) => `${name}: needs an API key (--api-key / API_KEY) of a wallet allowed to mint on the collection`,
      ),
    ]);
  });

  it("mints on another collection, on that collection's chain, to the recipient named", async () => {
    const fresh = await freshTarget();
    const other = (await new Facts(fresh.target, new Api(fresh.url)).sample()).collections.find(
      (collection) => collection.chainId !== fresh.target.chainId,
    )!;
    const recipient = "0x00000000000000000000000000000000000000AA";
    const report = await runContractSuite({ ...fresh.target, mintCollection: other.address, recipient });
    expect(report.results.filter((result) => result.status !== "passed")).toEqual([]);
    const minted = report.results.filter((result) => result.group === "POST /api/v2/item/new (writes)");
    expect(minted.map((result) => result.status)).toEqual(["passed", "passed", "passed"]);
  });

  it("holds the list's paging and count checks for a deployment with no collections", async () => {
    const proxy = await startBrokenTarget(snapshot.url, {
      rewriteBody: (url, status, body) =>
        url.pathname === "/api/v2/collection" && status === 200 ? { collections: [], count: 0 } : body,
    });
    proxies.push(proxy);
    const list = "GET /api/v2/collection › ";
    const checks = [
      "the default page holds min(24, count) collections",
      "pages are disjoint and together equal the first page of 100",
      "count is the total on every page, and page lengths follow from it",
      "a filter that matches nothing answers no collections and count 0",
    ];
    const results = await runChecks(proxy.url, new Set(checks.map((check) => `${list}${check}`)));
    expect(results.map((result) => `${result.name}: ${result.status}`)).toEqual(
      checks.map((check) => `${check}: passed`),
    );
  });

  it("leaves a malformed id to its own check: the order of the history is judged by the ids it can read", async () => {
    const proxy = await startBrokenTarget(snapshot.url, BREAKAGES.malformedEventIds);
    proxies.push(proxy);
    const history = "GET /api/v2/item/events/:address/:tokenId › ";
    const checks = [
      "events are newest first: block, then log index, descending",
      "ids are well formed, unique and agree with the event's fields",
    ];
    const results = await runChecks(proxy.url, new Set(checks.map((check) => `${history}${check}`)));
    expect(results.map((result) => result.status)).toEqual(["passed", "failed"]);
  });

  it("sends its mints' error cases even when the known collection cannot be read alone", async () => {
    const proxy = await startBrokenTarget(snapshot.url, {
      rewriteStatus: (url, status) => (/^\/api\/v2\/collection\/0x[0-9a-f]{40}$/.test(url.pathname) ? 404 : status),
    });
    proxies.push(proxy);
    const cases = ["a mint without apiKey", "a mint with an unknown apiKey"];
    const checks = cases.flatMap((name) => [
      `errors › ${name} answers 401`,
      `errors › ${name} answers the JSON error body {error, message, errors[]}`,
    ]);
    const results = await runChecks(proxy.url, new Set(checks));
    expect(results.map((result) => `${result.name}: ${result.status}`)).toEqual(
      checks.map((check) => `${check.slice("errors › ".length)}: passed`),
    );
  });

  it.each(breakageNames)("fails each check the seeded defect %s breaks, saying what it found", async (name) => {
    const checks = new Set(CHECK_NAMES.filter((check) => CHECK_TARGETS[check]!.includes(name as BreakageName)));
    // A target that takes any key mints for the check that sends an unknown one.
    const writes = [...checks].some((check) => check.startsWith(WRITES)) || name === "unknownKeyAccepted";
    const proxy = await startBrokenTarget(
      (writes ? await freshTarget() : snapshot).url,
      BREAKAGES[name as BreakageName],
    );
    proxies.push(proxy);
    const results = await runChecks(proxy.url, checks);
    expect(results.map((result) => `${result.group} › ${result.name}`)).toEqual([...checks]);
    const held = results.filter((result) => result.status !== "failed");
    expect(held.map(({ name: check, status }) => `${check}: ${status}`)).toEqual([]);
    for (const result of results) expect(result.violations.length, result.name).toBeGreaterThan(0);
    // What each check reports, as a reader of the report sees it (the proxy's address left out).
    const reported = results.map((result) => ({
      check: result.name,
      violations: result.violations.map(({ message, request }) => ({
        message: message.replaceAll(proxy.url, "<target>"),
        ...(request !== undefined ? { request: request.replaceAll(proxy.url, "<target>") } : {}),
      })),
    }));
    expect(reported).toMatchSnapshot();
  });
});
