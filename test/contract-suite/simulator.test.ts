import { execFile } from "node:child_process";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_JUNIT_PATH } from "../../src/cli/contract-test-options.ts";
import { startLocalTarget, type LocalTarget } from "../../src/cli/contract-target.ts";
import { CHECK_GROUPS, runContractSuite } from "../../src/contract-suite/suite.ts";
import { runShown } from "../docs/run-shown.ts";
import { startBrokenTarget, type BrokenTarget } from "./broken-target.ts";

const execFileAsync = promisify(execFile);
// Vitest sets BASE_URL=/ for Vite; the CLI would read it as its target.
const { BASE_URL: _baseUrl, API_KEY: _apiKey, ...cleanEnv } = process.env;
const run = (file: string, args: string[]) => execFileAsync(file, args, { cwd: process.cwd(), env: cleanEnv });
const CLI = "src/cli/contract-test.ts";
const checkCount = CHECK_GROUPS.reduce((sum, group) => sum + group.checks.length, 0);

let local: LocalTarget;

beforeAll(async () => {
  local = await startLocalTarget();
});

afterAll(async () => {
  await local?.close();
});

describe("the contract suite against the simulator", () => {
  it("passes every check, the mint included when writes are allowed", async () => {
    const report = await runContractSuite({ ...local.target, allowWrites: true });
    const notPassed = report.results.filter((result) => result.status !== "passed");
    expect(notPassed).toEqual([]);
    expect(report.results).toHaveLength(checkCount);
  });

  it("sends the API key in the ALTURA_API_KEY header when asked, and the mint passes all the same", async () => {
    const logged = async () =>
      (
        (await (await fetch(`${local.sim.url}/_sim/requests?limit=1000`)).json()) as {
          requests: { id: number; method: string; path: string; query: string; status: number; apiKey?: string }[];
        }
      ).requests;
    const since = Math.max(0, ...(await logged()).map(({ id }) => id));
    const report = await runContractSuite({ ...local.target, allowWrites: true, apiKeyIn: "header" });
    expect(report.results.filter((result) => result.status !== "passed")).toEqual([]);
    const mints = (await logged()).filter(
      ({ id, method, path }) => id > since && method === "POST" && path === "/api/v2/item/new",
    );
    expect(mints.some(({ status, apiKey }) => status === 200 && apiKey !== undefined)).toBe(true);
    expect(mints.filter(({ query }) => query.includes("apiKey="))).toEqual([]);
  });

  it("has data enough to tell: more collections and history than one default page", async () => {
    const list = (await (await fetch(`${local.sim.url}/api/v2/collection?perPage=100`)).json()) as { count: number };
    const { collection, tokenId } = local.target;
    const history = (await (
      await fetch(`${local.sim.url}/api/v2/item/events/${collection}/${tokenId}?perPage=100`)
    ).json()) as { events: { event: string }[] };
    expect(list.count).toBeGreaterThan(24);
    expect(history.events.length).toBeGreaterThan(24);
    expect(new Set(history.events.map((event) => event.event))).toEqual(
      new Set([
        "TransferSingle",
        "ItemListed",
        "ItemPriceUpdated",
        "Swapped",
        "ItemAdded",
        "ItemRemoved",
        "ItemDelisted",
      ]),
    );
  });

  it("sends no transaction unless writes are allowed", async () => {
    const blockNumbers = () => Promise.all(local.sim.chains.all().map((chain) => chain.publicClient.getBlockNumber()));
    const before = await blockNumbers();
    const report = await runContractSuite(local.target);
    expect(await blockNumbers()).toEqual(before);
    expect(report.results.filter((result) => result.status === "skipped").map((result) => result.group)).toEqual(
      Array(3).fill("POST /api/v2/item/new (writes)"),
    );
  });

  it("keeps the API key out of the report", async () => {
    const report = await runContractSuite({ ...local.target, apiKey: "do-not-print-me" });
    const requests = report.results.flatMap((result) => result.violations.map((violation) => violation.request ?? ""));
    expect(requests.some((request) => request.includes("apiKey=***"))).toBe(true);
    expect(JSON.stringify(report)).not.toContain("do-not-print-me");
  });
});

describe("npm run contract-test", () => {
  let broken: BrokenTarget | undefined;
  afterAll(async () => broken?.close());

  it("starts its own simulator without --base-url, passes, exits 0 and writes JUnit XML", async () => {
    // As docs/testing.md shows it: the report goes to its default path, in the project's folder (ignored by git).
    await rm(DEFAULT_JUNIT_PATH, { force: true });
    const { code, stdout, stderr } = await runShown("npm run contract-test");
    expect(code, stderr).toBe(0);
    expect(stdout).toMatch(/contract-test: \d+ passed, 0 failed, \d+ skipped/);
    const xml = await readFile(DEFAULT_JUNIT_PATH, "utf8");
    expect(xml).toContain(`<testsuites name="contract-test http://127.0.0.1:`);
    expect(xml).toContain(`tests="${checkCount}" failures="0"`);
    await rm(DEFAULT_JUNIT_PATH, { force: true });
  });

  it("passes against a running deployment given by --base-url, read-only and fuzzed", async () => {
    const before = await (await fetch(`${local.sim.url}/api/v2/collection?perPage=100`)).text();
    const checked = await runShown("npm run contract-test -- --base-url https://staging.example.com", {
      deployment: local.sim.url,
    });
    expect(checked.code, checked.stdout + checked.stderr).toBe(0);
    expect(checked.stdout).toMatch(/contract-test: \d+ passed, 0 failed, \d+ skipped/);
    const fuzzed = await runShown(
      "npm run contract-test -- --base-url https://staging.example.com --fuzz 300 --seed 7",
      { deployment: local.sim.url },
    );
    expect(fuzzed.code, fuzzed.stdout + fuzzed.stderr).toBe(0);
    expect(fuzzed.stdout).toContain("seed 7");
    expect(await (await fetch(`${local.sim.url}/api/v2/collection?perPage=100`)).text()).toBe(before);
    await rm(DEFAULT_JUNIT_PATH, { force: true });
  }, 120_000);

  it("exits 1 against a broken deployment and names each violation with its request", async () => {
    broken = await startBrokenTarget(local.sim.url, {
      rewriteBody: (url, status, body) =>
        url.pathname === "/api/v2/collection/" + local.target.collection && status === 200
          ? { collection: { ...(body as { collection: object }).collection, chainId: "56" } }
          : body,
    });
    const junit = join(await mkdtemp(join(tmpdir(), "contract-suite-")), "results.xml");
    const args = [
      CLI,
      "--quiet",
      "--base-url",
      broken.url,
      "--collection",
      local.target.collection!,
      "--token-id",
      String(local.target.tokenId),
      "--junit",
      junit,
    ];
    const failure = await run(process.execPath, args).then(
      () => undefined,
      (error: { code: number; stdout: string }) => error,
    );
    expect(failure?.code).toBe(1);
    const stdout = failure!.stdout;
    expect(stdout).toContain(
      "✗ GET /api/v2/collection/:address › a known collection answers 200 and a CollectionResponse body",
    );
    expect(stdout).toContain("body.collection.chainId must be integer (schema CollectionResponse)");
    expect(stdout).toContain(`request: GET ${broken.url}/api/v2/collection/${local.target.collection}`);
    expect(stdout).toMatch(/contract-test: \d+ passed, [1-9]\d* failed, \d+ skipped/);
    const xml = await readFile(junit, "utf8");
    expect(xml).toMatch(
      /<testcase classname="GET \/api\/v2\/collection\/:address" name="a known collection answers 200 and a CollectionResponse body" time="[0-9.]+">\n\s+<failure message="body.collection.chainId must be integer/,
    );
  });

  it("refuses a bad flag with exit code 2 and the usage", async () => {
    const failure = await run(process.execPath, [CLI, "--token-id", "one"]).catch(
      (error: { code: number; stderr: string }) => error,
    );
    expect(failure).toMatchObject({
      code: 2,
      stderr: expect.stringContaining(
        "--token-id: 'one' is not a valid number (an integer from 0 to 9007199254740991)",
      ),
    });
    expect((failure as { stderr: string }).stderr).toContain("Usage: npm run contract-test");
  });
});
