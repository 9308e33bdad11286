import { execFile } from "node:child_process";
import { mkdtemp, readFile } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startLocalTarget, type LocalTarget } from "../../src/cli/contract-target.ts";

const CLI = "src/cli/contract-test.ts";
const RECORDER = new URL("./record-modules.mjs", import.meta.url).href;
// Vitest sets BASE_URL=/ for Vite; the CLI would read it as its target.
const { BASE_URL: _baseUrl, API_KEY: _apiKey, ...cleanEnv } = process.env;

interface Run {
  code: number;
  stdout: string;
  stderr: string;
  modules: string[];
  /** The JUnit report the run wrote ("" if none). */
  junit: string;
}

/** The CLI as a real process, recording every module it resolves. */
async function runCli(args: string[]): Promise<Run> {
  const record = join(await mkdtemp(join(tmpdir(), "contract-suite-")), "modules.txt");
  const junit = join(dirname(record), "results.xml");
  const { code, stdout, stderr } = await new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
    execFile(
      process.execPath,
      ["--import", RECORDER, CLI, "--quiet", "--junit", junit, ...args],
      { cwd: process.cwd(), env: { ...cleanEnv, RECORD_MODULES_TO: record } },
      (error, stdout, stderr) => resolve({ code: error ? Number(error.code) : 0, stdout, stderr }),
    );
  });
  const modules = (await readFile(record, "utf8").catch(() => "")).split("\n").filter(Boolean);
  return {
    code,
    stdout,
    stderr,
    modules,
    junit: await readFile(junit, "utf8").catch(() => ""),
  };
}

const lines = (run: Run) => `${run.stdout}${run.stderr}`.trimEnd().split("\n");
const loadsHardhat = (run: Run) => run.modules.some((url) => /\/node_modules\/(hardhat|@nomicfoundation)\//.test(url));

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

let local: LocalTarget;
const servers: Server[] = [];

beforeAll(async () => {
  local = await startLocalTarget();
});

afterAll(async () => {
  await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
  await local?.close();
});

describe("the contract suite tells a target it cannot test (exit 2) from one that breaks the contract", () => {
  it("stops at a dead port with exit 2, at most 6 lines, and loads nothing of Hardhat (what would make it slow)", async () => {
    const server = createServer();
    const url = await listen(server);
    await new Promise((resolve) => server.close(resolve));
    const run = await runCli(["--base-url", url]);
    expect(run.code).toBe(2);
    expect(lines(run).length).toBeLessThanOrEqual(6);
    expect(run.stdout).toBe("");
    expect(run.stderr).toContain(
      `contract-test could not run: ${url} cannot be reached (fetch failed (ECONNREFUSED)): start it, or pass --base-url of a running server`,
    );
    expect(run.modules.some((module) => module.endsWith("/src/contract-suite/setup.ts"))).toBe(true);
    expect(loadsHardhat(run)).toBe(false);
    // CI still finds a report: one failed test case saying why.
    expect(run.junit).toMatch(/<testsuites [^>]* tests="1" failures="1"/);
    expect(run.junit).toContain(`<testcase classname="set-up" name="the target can be tested"`);
    expect(run.junit).toContain(`${url} cannot be reached (fetch failed (ECONNREFUSED))`);
  });

  it("stops with exit 2 on a command line it cannot read, and still writes the JUnit report saying why", async () => {
    const run = await runCli(["--fuzz", "many"]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("--fuzz");
    expect(run.junit).toMatch(/<testsuites [^>]* tests="1" failures="1"/);
    expect(run.junit).toMatch(/usage: [^<]*--fuzz/);
  });

  it("writes the JUnit report in fuzz mode too: a test case per operation fuzzed", async () => {
    const run = await runCli(["--base-url", local.target.baseUrl, "--fuzz", "30", "--seed", "3"]);
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(run.stdout).toContain("JUnit report: ");
    for (const operation of ["listCollections", "getCollection", "getItemEvents", "mintItem"])
      expect(run.junit).toContain(`name="${operation}: every answer as documented"`);
    expect(run.junit).toContain(`name="the world changed only by the run's own mints"`);
    expect(run.junit).toMatch(/<testsuites [^>]* failures="0"/);
  });

  it("stops with exit 2 when the target answers something that is not JSON", async () => {
    const server = createServer((_req, res) =>
      res.writeHead(200, { "content-type": "text/html" }).end("<html>Welcome</html>"),
    );
    servers.push(server);
    const url = await listen(server);
    const run = await runCli(["--base-url", url]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(
      `${url}/api/v2/collection answered 200 (text/html), not JSON: is --base-url the API's root?`,
    );
    expect(lines(run).length).toBeLessThanOrEqual(6);
  });

  it("stops with exit 2 when a remote target refuses the API key", async () => {
    const run = await runCli([
      "--base-url",
      local.sim.url,
      "--api-key",
      "no-such-key",
      "--collection",
      local.target.collection!,
      "--allow-writes",
    ]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(
      `${local.sim.url} refused the API key (401 on POST /api/v2/item/new): pass --api-key of an account that may mint on --collection ${local.target.collection}`,
    );
  });

  it("stops with exit 2 when the collection given is not on the target", async () => {
    const missing = "0x00000000000000000000000000000000000000c0";
    const run = await runCli(["--base-url", local.sim.url, "--collection", missing]);
    expect(run.code).toBe(2);
    expect(run.stderr.trim()).toBe(
      `contract-test could not run: ${local.sim.url} has no collection ${missing}: pass --collection of one it lists`,
    );
  });

  it("stops with exit 2 when writes to a remote target name no collection to mint on", async () => {
    const run = await runCli(["--base-url", local.sim.url, "--api-key", "demo-studio-key", "--allow-writes"]);
    expect(run.code).toBe(2);
    expect(run.stderr.trim()).toBe(
      `contract-test could not run: --allow-writes against ${local.sim.url} needs --collection: a collection that --api-key may mint on`,
    );
  });

  it("stops with exit 2 when the local simulator says the key may not mint on the collection given", async () => {
    const run = await runCli([
      "--api-key",
      "demo-guest-key",
      "--collection",
      local.target.collection!,
      "--allow-writes",
    ]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(
      new RegExp(
        `the API key 'demo-guest-key' may not mint on collection ${local.target.collection} at http://127\\.0\\.0\\.1:\\d+: pass --collection it may mint on, or another --api-key`,
      ),
    );
    expect(loadsHardhat(run)).toBe(true);
  });

  it("mints on a collection the local simulator shows the key may mint on, when none is given", async () => {
    const run = await runCli(["--api-key", "demo-arcade-key", "--allow-writes"]);
    expect(run.stderr).toBe("");
    expect(run.stdout).toMatch(/contract-test: \d+ passed, 0 failed, 0 skipped/);
    expect(run.code).toBe(0);
  });
});
