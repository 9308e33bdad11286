import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startLocalTarget, type LocalTarget } from "../../src/cli/contract-target.ts";
import { requestsFor } from "../../src/contract-suite/fuzz/requests.ts";
import { runFuzz } from "../../src/contract-suite/fuzz/run.ts";
import { OPERATIONS } from "../../src/schemas/operations.ts";
import { startBrokenTarget, type Breakage, type BrokenTarget } from "./broken-target.ts";

// The fuzz mode (contract-test --fuzz): requests generated from the route table's schemas,
// seeded and shrunk. It passes on the simulator and finds each defect a broken target has.

let local: LocalTarget;
const proxies: BrokenTarget[] = [];
beforeAll(async () => {
  local = await startLocalTarget({ allowWrites: true });
});
afterAll(async () => {
  await Promise.all(proxies.map((proxy) => proxy.close()));
  await local?.close();
});

const fuzz = (baseUrl: string, runs: number, seed = 11, allowWrites = false) => runFuzz({ ...local.target, baseUrl, allowWrites }, { runs, seed, timeBoundMs: 10_000 });

async function fuzzBroken(breakage: Breakage, runs = 400) {
  const proxy = await startBrokenTarget(local.sim.url, breakage);
  proxies.push(proxy);
  return fuzz(proxy.url, runs);
}

describe("contract-test --fuzz", () => {
  it("finds nothing wrong with the simulator: every answer documented, schema-true, no 5xx, refusals that change nothing, mints readable at once", async () => {
    const report = await fuzz(local.target.baseUrl, 600, 11, true);
    expect(report.findings).toEqual([]);
    expect(report.requests).toBeGreaterThanOrEqual(590);
    expect(report.serverErrors).toBe(0);
    expect(report.statuses[200]).toBeGreaterThan(50);
    expect(report.statuses[400]).toBeGreaterThan(50);
  });

  it("generates the same requests for the same seed", () => {
    for (const operation of OPERATIONS) {
      const context = { addresses: ["0x862abc8236dbc6e342d57409acfb800cbb2d6978"], tokenIds: [1], chainIds: [56] };
      expect(fc.sample(requestsFor(operation, context), { numRuns: 50, seed: 5 })).toEqual(fc.sample(requestsFor(operation, context), { numRuns: 50, seed: 5 }));
    }
  });

  it("finds a server error, shrunk to a curl line (a body in a coding it is not in answering 500)", async () => {
    const report = await fuzzBroken({ rewriteStatus: (url, status, headers) => (url.pathname === "/api/v2/item/new" && headers["content-encoding"] ? 500 : status) });
    const finding = report.findings.find((f) => f.operation === "mintItem");
    expect(finding?.problems).toContain("answered 500: a server error");
    expect(finding?.curl).toMatch(/^curl -X POST .*-H 'content-encoding: [a-z-]+'/);
  });

  it("finds a body its schema refuses (a list without holders)", async () => {
    const report = await fuzzBroken({
      rewriteBody: (url, status, body) => {
        if (url.pathname !== "/api/v2/collection" || status !== 200) return body;
        const list = body as { collections: Record<string, unknown>[] };
        return { ...list, collections: list.collections.map(({ holders: _holders, ...rest }) => rest) };
      },
    });
    expect(report.findings.find((f) => f.operation === "listCollections")?.problems.join("\n")).toMatch(/holders/);
  });

  it("finds a refused request accepted (a server that reads perPage=0x10 as 16)", async () => {
    const report = await fuzzBroken({
      rewriteUrl: (url) => {
        for (const [name, value] of url.searchParams) if (/^0x[0-9a-f]+$/i.test(value) && name !== "apiKey") url.searchParams.set(name, String(Number(value)));
        return url;
      },
    }, 800);
    expect(report.findings.some((f) => f.problems.some((p) => p.startsWith("accepted (200) a request its schemas refuse")))).toBe(true);
  });

  it("finds a status the operation does not document", async () => {
    const report = await fuzzBroken({ rewriteStatus: (url, status) => (url.pathname.startsWith("/api/v2/collection/") && status === 404 ? 410 : status) });
    expect(report.findings.find((f) => f.operation === "getCollection")?.problems.join("\n")).toMatch(/answered 410, which getCollection does not document/);
  });
});
