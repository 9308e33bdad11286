import { execFile, execFileSync, spawn } from "node:child_process";
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, dirname, join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runShown } from "../docs/run-shown.ts";
import { needing } from "../needs.ts";
import { BANNER_END, bannerUrls, printedBy } from "../processes.ts";

// The package as a user gets it: `npm pack`, then `npm install <tarball>` into an empty project
// (packages from the registry only), then the bin, a test run with startSimulator in vitest's
// globalSetup, and the MSW handlers, all from that project. npm runs on this Node 22, as it does
// for a user on Node 22 or later.
const run = promisify(execFile);
const quiet = { NO_COLOR: "1", FORCE_COLOR: "0" };
const env = {
  ...process.env,
  PATH: `${dirname(process.execPath)}${delimiter}${process.env.PATH}`,
  npm_config_update_notifier: "false",
  NO_COLOR: "1",
  FORCE_COLOR: "0",
};
const work = mkdtempSync(join(tmpdir(), "nft-sim-package-"));
const project = join(work, "project");
const figures: Record<string, string> = {};

const inProject = (command: string, args: string[], timeout = 120_000) =>
  run(command, args, { cwd: project, env, timeout, maxBuffer: 20e6 });
const seconds = (started: number) => `${((performance.now() - started) / 1000).toFixed(1)} s`;

describe("the packed package, installed into an empty project", () => {
  let tarball: string;

  beforeAll(async () => {
    let started = performance.now();
    // As docs/testing.md shows it: `npm pack` here, then an install from the clone next to the project.
    const { name, version } = JSON.parse(readFileSync("package.json", "utf8")) as { name: string; version: string };
    const packed = `${name}-${version}.tgz`;
    const pack = await runShown("npm pack", { env: quiet, timeoutMs: 150_000 });
    expect(pack.code, pack.stderr).toBe(0);
    mkdirSync(join(work, "nft-service-simulator"));
    tarball = join(work, "nft-service-simulator", packed);
    renameSync(packed, tarball);
    figures["npm pack"] = seconds(started);
    figures.tarball = `${(statSync(tarball).size / 1e6).toFixed(2)} MB`;
    cpSync(join(process.cwd(), "test/package/consumer"), project, { recursive: true });
    writeFileSync(
      join(project, "package.json"),
      `${JSON.stringify({ name: "consumer", private: true, type: "module", scripts: { test: "vitest run" } }, null, 2)}\n`,
    );
    started = performance.now();
    const install = await runShown("npm install --save-dev ../nft-service-simulator/nft-service-simulator-0.1.0.tgz", {
      cwd: project,
      env: { ...quiet, npm_config_audit: "false", npm_config_fund: "false" },
      timeoutMs: 240_000,
    });
    expect(install.code, install.stderr).toBe(0);
    figures["npm install <tarball>"] = seconds(started);
    started = performance.now();
    await inProject(
      "npm",
      ["install", "--no-audit", "--no-fund", "--save-dev", "vitest@4", "msw@2", "@types/node@22", "viem@2"],
      240_000,
    );
    figures["npm install -D vitest msw @types/node viem"] = seconds(started);
  }, 480_000);

  afterAll(() => {
    console.log(`package figures: ${JSON.stringify(figures)}`);
    rmSync(work, { recursive: true, force: true });
  });

  it("is the size docs/testing.md says, within rounding", () => {
    const stated = /writes nft-service-simulator-[\d.]+\.tgz \(about ([\d.]+) MB\)/.exec(
      readFileSync("docs/testing.md", "utf8"),
    );
    expect(stated, "docs/testing.md states the tarball's size").not.toBeNull();
    expect(Math.abs(statSync(tarball).size / 1e6 - Number(stated![1]))).toBeLessThanOrEqual(0.1);
  });

  it("ships its MIT licence, named in its package.json", () => {
    const installed = join(project, "node_modules/nft-service-simulator");
    expect(readFileSync(join(installed, "LICENSE"), "utf8")).toMatch(
      /^MIT License\n\nCopyright \(c\) \d{4} the NFT service simulator authors\n/,
    );
    expect(JSON.parse(readFileSync(join(installed, "package.json"), "utf8")).license).toBe("MIT");
  });

  it("has a bin whose --help lists the commands, and usage errors exit 2", async () => {
    const { code, stdout } = await runShown("npx nft-sim --help", { cwd: project, env: quiet });
    expect(code).toBe(0);
    expect(stdout).toContain("Usage: nft-sim <command>");
    for (const command of ["simulate", "contract-test", "fixtures export", "openapi"])
      expect(stdout).toContain(command);
    expect((await inProject("npx", ["nft-sim", "simulate", "--help"])).stdout).toContain(
      "Usage: nft-sim simulate [options]",
    );
    const refused = await inProject("npx", ["nft-sim", "simulate", "--port", "http"]).catch(
      (error: { code: number; stderr: string }) => error,
    );
    expect(refused).toMatchObject({ code: 2 });
    expect((refused as { stderr: string }).stderr).toContain("--port: 'http' is not a valid number");
    const document = JSON.parse((await inProject("npx", ["nft-sim", "openapi"])).stdout);
    expect(document.openapi).toBe("3.1.0");
  });

  // The machine's own Node (20 here and in CI) is older than the package needs: both ways in say so in one line.
  const olderNode = "/usr/bin/node";
  const older = existsSync(olderNode) ? execFileSync(olderNode, ["--version"], { encoding: "utf8" }).trim() : "";
  const { it: itOnOlderNode } = needing(
    /^v(1\d|2[01])\./.test(older) ? undefined : `${olderNode} is ${older || "missing"}, not a Node older than 22`,
    "put a Node older than 22 at /usr/bin/node (as this machine's own is), to see what such a user sees",
  );
  itOnOlderNode(
    `on ${older || "an older Node"}, the bin and startSimulator() say in one line that Node 22 is needed`,
    async () => {
      const line = `nft-service-simulator needs Node.js 22 or later; this is Node.js ${older.slice(1)} (its chains run on Hardhat 3, which needs 22).`;
      const bin = await run(olderNode, [join(project, "node_modules/.bin/nft-sim"), "simulate"], {
        cwd: project,
        env,
      }).catch((error: { code: number; stderr: string }) => error);
      expect(bin).toMatchObject({ code: 1, stderr: `${line}\n` });
      const script =
        'import("nft-service-simulator").then((m) => m.startSimulator()).then(() => console.log("started"), (e) => console.log(e.message))';
      const { stdout } = await run(olderNode, ["--input-type=module", "-e", script], { cwd: project, env });
      expect(stdout).toBe(`${line}\n`);
    },
  );

  it("serves the default world with npx nft-sim simulate, prints the banner and stops on SIGTERM", async () => {
    const started = performance.now();
    const child = spawn("npx", ["nft-sim", "simulate", "--port", "0", "--rpc-port", "0"], {
      cwd: project,
      env,
      stdio: ["ignore", "pipe", "pipe"],
      detached: true,
    });
    const printed = printedBy(child);
    try {
      const { base: url } = bannerUrls(await printed.waitFor(BANNER_END, 60_000));
      expect((await fetch(`${url}/api/v2/collection`)).status, printed.output()).toBe(200);
      figures["nft-sim simulate: banner and a first 200"] = seconds(started);
      const output = printed.output();
      expect(output).toContain("NFT service simulator ready in");
      expect(output).toMatch(/chain 56 +BNB Smart Chain: http:\/\/127\.0\.0\.1:\d+/);
      expect(output).toContain("demo-studio-key");
      // The README's CI and frontend paths, from the project: the contract suite against this simulator, a HAR file.
      const suite = await runShown(
        "npx nft-sim contract-test --base-url https://staging.example.com --junit contract-test-results.xml",
        { cwd: project, env: quiet, deployment: url },
      );
      expect(suite.code, suite.stdout + suite.stderr).toBe(0);
      expect(readFileSync(join(project, "contract-test-results.xml"), "utf8")).toMatch(/failures="0"/);
      const har = await runShown(
        "npx nft-sim fixtures export --har tests/nft-api.har --public-url http://localhost:3000",
        { cwd: project, env: quiet },
      );
      expect(har.code, har.stderr).toBe(0);
      const { log } = JSON.parse(readFileSync(join(project, "tests/nft-api.har"), "utf8"));
      expect(log.entries.length).toBeGreaterThan(1000);
      expect(log.entries[0].request.url).toMatch(/^http:\/\/localhost:3000\/api\/v2\//);
      const dashboard = await fetch(`${url}/dashboard/app.js`);
      expect(dashboard.status, "the dashboard ships in the package").toBe(200);
      expect((await fetch(`${url}/_sim/time`)).status, "the control API answers").toBe(200);
    } finally {
      // npx and the simulator it runs: the simulator stops cleanly, npx may end by the signal itself.
      process.kill(-child.pid!, "SIGTERM");
    }
    await new Promise((resolve) => child.once("close", resolve));
    expect(printed.output()).toMatch(/SIGTERM at \S+Z: stopping/);
  }, 150_000);

  it("answers its first start of the default world from the world it ships, cached when it was packed", async () => {
    const child = spawn(
      "npx",
      ["nft-sim", "simulate", "--port", "0", "--no-rpc", "--public-url", "http://127.0.0.1:3000"],
      { cwd: project, env, stdio: ["ignore", "pipe", "pipe"], detached: true },
    );
    const printed = printedBy(child);
    try {
      await printed.waitFor(BANNER_END, 60_000);
      expect(printed.output()).toContain(
        "Answering from the cached world (node_modules/nft-service-simulator/dist/cached-worlds) after",
      );
    } finally {
      process.kill(-child.pid!, "SIGTERM");
    }
    await new Promise((resolve) => child.once("close", resolve));
  }, 90_000);

  it('type-checks a project that imports it, in Node and as a browser bundle (the "browser" condition\'s own declarations)', async () => {
    const tsc = join(process.cwd(), "node_modules/typescript/bin/tsc");
    await inProject(process.execPath, [tsc, "-p", "."]);
    await inProject(process.execPath, [tsc, "-p", "tsconfig.browser.json"]);
  }, 150_000); // two type-checks of a project importing viem's types: a hang guard, as its neighbours'.

  it("runs that project's vitest tests: startSimulator in globalSetup, a second one, the MSW handlers, sim.events() and a fragment arranged", async () => {
    const started = performance.now();
    const { stdout } = await inProject("npx", ["vitest", "run"], 150_000);
    figures["consumer vitest run"] = seconds(started);
    expect(stdout.replace(/\u001b\[[0-9;]*m/g, "")).toMatch(/Tests +5 passed/);
  }, 160_000);
});
