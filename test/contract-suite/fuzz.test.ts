import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startLocalTarget, type LocalTarget } from "../../src/cli/contract-target.ts";
import { requestsFor } from "../../src/contract-suite/fuzz/requests.ts";
import { runFuzz, type FuzzReport } from "../../src/contract-suite/fuzz/run.ts";
import { SERVED_OPERATIONS } from "../../src/schemas/operations.ts";
import { HANG_MS } from "../eventually.ts";
import { drawnSeed } from "../fast-check.ts";
import { BREAKAGES } from "./breakages.ts";
import { startBrokenTarget, type Breakage, type BrokenTarget } from "./broken-target.ts";

// The fuzz mode (contract-test --fuzz): requests generated from the route table's schemas and from
// what the target serves, seeded and shrunk. It passes on the simulator and finds each defect a
// broken target has, at a bounded count and whatever the seed (new each run, FC_SEED replays it), as a curl line.

/** Requests per run against a broken target: enough for each defect below, whatever the seed. */
const BROKEN_RUNS = 400;
/** Requests per run against the simulator (CI's bound). */
const SIMULATOR_RUNS = 600;

let local: LocalTarget;
const proxies: BrokenTarget[] = [];
beforeAll(async () => {
  local = await startLocalTarget({ allowWrites: true });
});
afterAll(async () => {
  await Promise.all(proxies.map((proxy) => proxy.close()));
  await local?.close();
});

const fuzz = (baseUrl: string, runs: number, allowWrites = false) =>
  // The time bound is the fuzz mode's own check of a deployment; here it only tells a hang.
  runFuzz({ ...local.target, baseUrl, allowWrites }, { runs, seed: drawnSeed(), timeBoundMs: HANG_MS });

async function fuzzBroken(breakage: Breakage): Promise<FuzzReport> {
  const proxy = await startBrokenTarget(local.sim.url, breakage);
  proxies.push(proxy);
  return fuzz(proxy.url, BROKEN_RUNS);
}

/** A target that, when it refuses a mint, mints anyway (one item, to the collection's owner): a refusal that changes the world. */
function mintsWhenRefusing(): Breakage {
  const { apiKey, mintCollection } = local.target;
  return {
    rewriteBody: async (url, status, body, upstream) => {
      if (url.pathname !== "/api/v2/item/new" || status < 400) return body;
      const { collection } = (await (await fetch(`${upstream}/api/v2/collection/${mintCollection}`)).json()) as {
        collection: { ownerAddress: string; chainId: number };
      };
      await fetch(`${upstream}/api/v2/item/new?apiKey=${apiKey}`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({
          collectionAddress: mintCollection,
          recipient: collection.ownerAddress,
          chainId: collection.chainId,
          item: { name: "Side effect", initialSupply: 1 },
        }),
      });
      return body;
    },
  };
}

describe("contract-test --fuzz finds each seeded defect, shrunk to a curl line", () => {
  it.each([
    [
      "a list without holders (a schema defect)",
      "listWithoutHolders",
      "listCollections",
      /missing required field 'holders'/,
    ],
    [
      "chainId as a string in item history (a schema defect)",
      "chainIdAsString",
      "getItemEvents",
      /chainId must be integer/,
    ],
    [
      "perPage defaulting to 10",
      "perPageDefaultTen",
      /^(listCollections|getItemEvents)$/,
      /the default perPage 24 means \d+/,
    ],
    [
      "pages that overlap",
      "overlappingPages",
      "listCollections",
      /^page [2-9]\d* (holds \d+ collections with count|of \d+ shows)/,
    ],
    ["history oldest first", "historyOldestFirst", "getItemEvents", /history must be newest first/],
    ["errors in plain text", "plainTextErrors", /./, /^the body is not JSON: Bad Request$/],
    [
      "a 500 for a body not in its content-encoding",
      "serverErrorOnCoding",
      "mintItem",
      /^answered 500: a server error$/,
    ],
    [
      "perPage=0x10 read as 16 (a refused request accepted)",
      "hexNumbersAccepted",
      /./,
      /^accepted \(200\) a request its schemas refuse: query\.\w+ must be integer/,
    ],
    [
      "a status the operation does not document (410)",
      "undocumentedStatus",
      "getCollection",
      /^answered 410, which getCollection does not document/,
    ],
  ] as const)("%s", async (_what, breakage, operation, problem) => {
    const report = await fuzzBroken(BREAKAGES[breakage]);
    const finding = report.findings.find(
      (f) =>
        (typeof operation === "string" ? f.operation === operation : operation.test(f.operation)) &&
        f.problems.some((p) => problem.test(p)),
    );
    expect(finding, JSON.stringify(report.findings, null, 1)).toBeDefined();
    expect(finding!.curl).toMatch(/^curl -X (GET|POST) (-H '[^']*' )+.*'http:\/\/127\.0\.0\.1:\d+\/(api|metadata)\//);
    if (breakage === "serverErrorOnCoding") expect(finding!.curl).toMatch(/-H 'content-encoding: [a-z-]+'/);
    if (breakage === "hexNumbersAccepted") expect(finding!.curl).toMatch(/=0x[0-9a-f]+/);
  });

  it("a refused mint that changes the world anyway (found by the digest after a read-only run)", async () => {
    const report = await fuzzBroken(mintsWhenRefusing());
    const world = report.findings.find((f) => f.operation === "(the world)");
    expect(world?.problems.join("\n")).toMatch(
      new RegExp(
        `collection ${local.target.mintCollection} went from \\d+ to \\d+ items, but the run's accepted mints created 0`,
      ),
    );
  });
});

describe("contract-test --fuzz against the simulator", () => {
  // A simulator of its own: the broken targets' runs above send their unknown API keys to the shared one, and past
  // 100 a minute from one address it answers 429 to every mint (as it must), whatever the key.
  let own: LocalTarget;
  beforeAll(async () => {
    own = await startLocalTarget({ allowWrites: true });
  });
  afterAll(() => own?.close());
  const fuzzOwn = (runs: number, allowWrites = false) =>
    runFuzz({ ...own.target, allowWrites }, { runs, seed: drawnSeed(), timeBoundMs: HANG_MS });

  it("generates the same requests for the same seed", () => {
    const address = "0x862abc8236dbc6e342d57409acfb800cbb2d6978";
    const collection = {
      address,
      chainId: 56,
      slug: "s",
      uri: "http://x/metadata/56/s",
      ownerAddress: address,
      row: { address, chainId: 56, name: "S" },
    };
    const context = {
      addresses: [address],
      tokenIds: [1],
      chainIds: [56],
      collections: [collection],
      nextTokenIds: new Map([[address, 2]]),
      items: [{ address, chainId: 56, tokenId: 1 }],
      servesMetadata: true,
      mint: { apiKey: "k", collection: address, chainId: 56, recipients: [address] },
    };
    for (const operation of SERVED_OPERATIONS) {
      expect(fc.sample(requestsFor(operation, context), { numRuns: 50, seed: 5 })).toEqual(
        fc.sample(requestsFor(operation, context), { numRuns: 50, seed: 5 }),
      );
    }
  });

  it("read-only: no finding; every operation and the metadata route fuzzed, odd headers sent", async () => {
    const report = await fuzzOwn(SIMULATOR_RUNS / 2);
    expect(report.findings).toEqual([]);
    expect(report.operations).toContain("getItemMetadata");
    expect(report.serverErrors).toBe(0);
    expect(report.statuses[200]).toBeGreaterThan(50);
    expect(report.statuses[431]).toBeGreaterThan(0);
  });

  it("with writes: no finding; valid mints accepted, read back, and the world otherwise unchanged", async () => {
    const report = await fuzzOwn(SIMULATOR_RUNS, true);
    expect(report.findings).toEqual([]);
    expect(report.requests).toBeGreaterThanOrEqual(SIMULATOR_RUNS - 5);
    expect(report.serverErrors).toBe(0);
    expect(report.mints).toBeGreaterThan(20);
    expect(report.statuses[400]).toBeGreaterThan(50);
    expect(report.statuses[417]).toBeGreaterThan(0);
  });
});
