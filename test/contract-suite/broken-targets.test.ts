import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startLocalTarget, type LocalTarget } from "../../src/cli/contract-target.ts";
import { runContractSuite, type SuiteReport } from "../../src/contract-suite/suite.ts";
import { summary } from "../../src/contract-suite/report/summary.ts";
import { BREAKAGES } from "./breakages.ts";
import { startBrokenTarget, type Breakage, type BrokenTarget } from "./broken-target.ts";

let local: LocalTarget;
const proxies: BrokenTarget[] = [];

beforeAll(async () => {
  local = await startLocalTarget();
});

afterAll(async () => {
  await Promise.all(proxies.map((proxy) => proxy.close()));
  await local?.close();
});

async function runAgainst(breakage: Breakage): Promise<{ report: SuiteReport; proxy: BrokenTarget }> {
  const proxy = await startBrokenTarget(local.sim.url, breakage);
  proxies.push(proxy);
  const report = await runContractSuite({ ...local.target, baseUrl: proxy.url });
  return { report, proxy };
}

const failedNames = (report: SuiteReport) =>
  report.results.filter((result) => result.status === "failed").map((result) => result.name);
const resultOf = (report: SuiteReport, name: string) => report.results.find((result) => result.name === name)!;

describe("the suite fails, naming the violation and its request, against a target that", () => {
  it("drops a field from the collection list", async () => {
    const { report, proxy } = await runAgainst(BREAKAGES.listWithoutHolders);
    const schemaCheck = resultOf(report, "the default request answers 200 and a CollectionsResponse body");
    expect(schemaCheck.status).toBe("failed");
    expect(schemaCheck.violations[0]).toEqual({
      message: expect.stringContaining("missing required field 'holders'"),
      request: `GET ${proxy.url}/api/v2/collection`,
    });
    expect(resultOf(report, "a known collection answers 200 and a CollectionResponse body").status).toBe("passed");
    expect(summary(report)).toContain(`request: GET ${proxy.url}/api/v2/collection`);
  });

  it("answers a field with the wrong type in an item's history", async () => {
    const { report } = await runAgainst(BREAKAGES.chainIdAsString);
    const schemaCheck = resultOf(report, "the known item's history answers 200 and an ItemEventsResponse body");
    expect(schemaCheck.status).toBe("failed");
    expect(schemaCheck.violations.map((violation) => violation.message)).toContainEqual(
      expect.stringMatching(/body\.events\.0\.chainId must be integer/),
    );
    expect(failedNames(report)).toContain(
      "itemCollection, tokenId and chainId name the item asked for, and itemRef agrees with them",
    );
  });

  it("defaults perPage to 10", async () => {
    const { report, proxy } = await runAgainst(BREAKAGES.perPageDefaultTen);
    expect(failedNames(report)).toEqual(
      expect.arrayContaining([
        "the default equals the explicit ?perPage=24&page=1&sortBy=mintDate&sortDir=desc",
        "the default page holds min(24, count) collections",
        "the default equals the explicit ?perPage=24&page=1",
        "the default page holds min(24, history length) events",
      ]),
    );
    const pageSize = resultOf(report, "the default page holds min(24, count) collections");
    expect(pageSize.violations[0]!.message).toMatch(
      /holds 10 collections with count \d+; the default perPage 24 means 24/,
    );
    expect(pageSize.violations[0]!.request).toBe(`GET ${proxy.url}/api/v2/collection`);
    expect(
      report.results.filter((result) => result.group === "errors").every((result) => result.status === "passed"),
    ).toBe(true);
  });

  it("makes pages overlap", async () => {
    const { report, proxy } = await runAgainst(BREAKAGES.overlappingPages);
    const paging = resultOf(report, "pages are disjoint and together equal the first page of 100");
    expect(paging.status).toBe("failed");
    expect(paging.violations[0]!.message).toMatch(
      /^pages overlap: \d+:0x[0-9a-f]{40} is on page 1 and on page 2 \(perPage=7\)$/,
    );
    expect(paging.violations[0]!.request).toBe(`GET ${proxy.url}/api/v2/collection?perPage=7&page=2`);
    expect(resultOf(report, "the default request answers 200 and a CollectionsResponse body").status).toBe("passed");
  });

  it("lists an item's history oldest first", async () => {
    const { report } = await runAgainst(BREAKAGES.historyOldestFirst);
    const order = resultOf(report, "events are newest first: block, then log index, descending");
    expect(order.status).toBe("failed");
    expect(order.violations[0]!.message).toMatch(
      /^event #1 TransferSingle-\d+-\d+ \(block \d+, log \d+\) is listed before #2/,
    );
    expect(failedNames(report)).toContain("the oldest event is the mint (a transfer from the zero address)");
  });

  it("answers errors with the right status but a plain-text body", async () => {
    const { report } = await runAgainst(BREAKAGES.plainTextErrors);
    const errors = report.results.filter((result) => result.group === "errors");
    const statusChecks = errors.filter((result) => / answers \d{3}$/.test(result.name));
    const bodyChecks = errors.filter((result) =>
      result.name.endsWith("answers the JSON error body {error, message, errors[]}"),
    );
    expect(statusChecks.length).toBeGreaterThan(10);
    expect(statusChecks.every((result) => result.status === "passed")).toBe(true);
    expect(bodyChecks.every((result) => result.status === "failed")).toBe(true);
    expect(bodyChecks[0]!.violations[0]!.message).toBe(
      "the body is not JSON (content-type 'application/json; charset=utf-8'): Bad Request",
    );
  });

  it("is not there at all", async () => {
    const proxy = await startBrokenTarget(local.sim.url, {});
    await proxy.close();
    const report = await runContractSuite({ ...local.target, baseUrl: proxy.url });
    expect(report.results.every((result) => result.status !== "passed")).toBe(true);
    expect(report.results[0]!.violations[0]).toEqual({
      message: expect.stringMatching(/^the request failed: fetch failed \(ECONNREFUSED\)$/),
      request: `GET ${proxy.url}/api/v2/collection`,
    });
  });
});
