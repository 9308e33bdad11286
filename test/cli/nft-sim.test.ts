import { execFile } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { until } from "../eventually.ts";
import { startLocalTarget, type LocalTarget } from "../../src/cli/contract-target.ts";
import { EXPORT_MARKER } from "../../src/cli/export-snapshots.ts";

// `nft-sim`, the package's command, as a process: its exit codes (0 done, 1 failed, 2 usage) and
// where it writes what (errors on stderr); `fixtures export` never deletes a folder it did not write.

const NFT_SIM = resolve("src/cli/nft-sim.ts");
const DEMO = resolve("fixtures/demo-world.json");
// Vitest sets BASE_URL=/ for Vite; contract-test would read it as its target.
const { BASE_URL: _vite, API_KEY: _key, ...env } = process.env;

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

function nftSim(args: string[], cwd = process.cwd()): Promise<Run> {
  return new Promise((done) => {
    execFile(
      process.execPath,
      [NFT_SIM, ...args],
      { cwd, env, timeout: 120_000, maxBuffer: 20e6 },
      (error, stdout, stderr) => done({ code: error ? Number(error.code) : 0, stdout, stderr }),
    );
  });
}

describe("nft-sim without a command, or with one it does not know", () => {
  it("exits 2 with the usage on stderr and nothing on stdout", async () => {
    for (const args of [[], ["frobnicate"], ["fixtures"], ["fixtures", "import"]]) {
      const run = await nftSim(args);
      expect(run.code, args.join(" ")).toBe(2);
      expect(run.stdout, args.join(" ")).toBe("");
      expect(run.stderr, args.join(" ")).toContain("Usage: nft-sim <command> [options]");
    }
    expect((await nftSim(["frobnicate"])).stderr).toMatch(/^nft-sim: unknown command 'frobnicate'/);
    expect((await nftSim(["fixtures", "import"])).stderr).toMatch(/^nft-sim fixtures: unknown subcommand 'import'/);
  });

  it("--help exits 0 with the usage on stdout", async () => {
    const run = await nftSim(["--help"]);
    expect(run).toMatchObject({ code: 0, stderr: "" });
    expect(run.stdout).toContain("Usage: nft-sim <command> [options]");
  });

  it("each command's --help tells its usage as nft-sim runs it (exit 0, on stdout), none an npm script's", async () => {
    for (const command of ["simulate", "contract-test", "proxy", "fixtures export", "openapi", "import", "dev-keys"]) {
      const run = await nftSim([...command.split(" "), "--help"]);
      expect(run, command).toMatchObject({ code: 0, stderr: "" });
      expect(run.stdout.split("\n")[0], command).toMatch(new RegExp(`^Usage: nft-sim ${command}( |$)`));
      expect(run.stdout, command).not.toContain("npm run");
    }
  }, 120_000);

  it("openapi --help says where nft-sim openapi writes without a path: standard output, not the repository's docs", async () => {
    const { stdout } = await nftSim(["openapi", "--help"]);
    expect(stdout).toContain("(default standard output)");
    expect(stdout).not.toMatch(/docs\/openapi\.json|docs\/api\.md/);
  });

  it("fixtures --help names its subcommand, exit 0 on stdout", async () => {
    const run = await nftSim(["fixtures", "--help"]);
    expect(run).toMatchObject({ code: 0, stderr: "" });
    expect(run.stdout).toContain("Usage: nft-sim fixtures export [options]");
  });
});

describe("nft-sim contract-test", () => {
  let local: LocalTarget;
  beforeAll(async () => {
    local = await startLocalTarget();
  });
  afterAll(() => local?.close());

  it("passes against the simulator (exit 0), and cannot run against a dead port (exit 2, on stderr)", async () => {
    const junit = join(mkdtempSync(join(tmpdir(), "nft-sim-junit-")), "report.xml");
    const passed = await nftSim(["contract-test", "--base-url", local.target.baseUrl, "--quiet", "--junit", junit]);
    expect(passed.code, passed.stdout + passed.stderr).toBe(0);
    expect(passed.stdout).toMatch(/passed/);
    expect(readFileSync(junit, "utf8")).toContain("<testsuite");

    const dead = await nftSim(["contract-test", "--base-url", "http://127.0.0.1:9", "--quiet", "--junit", junit]);
    expect(dead.code).toBe(2);
    expect(dead.stderr).toMatch(/^contract-test could not run: .*127\.0\.0\.1:9/);
    const badFlag = await nftSim(["contract-test", "--token-id", "one"]);
    expect(badFlag.code).toBe(2);
    expect(badFlag.stderr).toContain("Usage: nft-sim contract-test [options]");
  }, 120_000);
});

describe("nft-sim fixtures export --out", () => {
  const work = mkdtempSync(join(tmpdir(), "nft-sim-export-"));
  const project = join(work, "project");
  const userFiles = () => readdirSync(project, { recursive: true }).map(String).sort();

  beforeAll(() => {
    mkdirSync(join(project, "src"), { recursive: true });
    writeFileSync(join(project, "package.json"), "{}\n");
    writeFileSync(join(project, "src/app.ts"), "export {};\n");
  });

  it("refuses a folder that holds files no export wrote, and the current folder even with --force: exit 2, nothing deleted", async () => {
    const before = userFiles();
    for (const [args, cwd, message] of [
      [["--out", "."], project, /that is the current folder/],
      [["--out", ".", "--force"], project, /that is the current folder/],
      [["--out", ".."], project, /that is the current folder or one above it/],
      [["--out", "project"], work, /holds 2 file\(s\) that no export wrote .*--force/],
      [["--out", "package.json"], project, /it is a file, not a folder/],
    ] as const) {
      const run = await nftSim(["fixtures", "export", "--fixture", DEMO, ...args], cwd);
      expect(run.code, args.join(" ")).toBe(2);
      expect(run.stderr.split("\n")[0], args.join(" ")).toMatch(message);
    }
    expect(userFiles()).toEqual(before);
  });

  it("writes a new folder with its marker, replaces it on the next export, and replaces a foreign one with --force", async () => {
    const out = join(work, "snapshots");
    const first = await nftSim(["fixtures", "export", "--fixture", DEMO, "--out", out]);
    expect(first.code, first.stderr).toBe(0);
    expect(existsSync(join(out, EXPORT_MARKER))).toBe(true);
    const index = JSON.parse(readFileSync(join(out, "index.json"), "utf8")) as { responses: { file: string }[] };
    expect(index.responses.length).toBeGreaterThan(10);
    for (const { file } of index.responses) expect(existsSync(join(out, file)), file).toBe(true);

    writeFileSync(join(out, "stray.json"), "{}\n");
    const again = await nftSim(["fixtures", "export", "--fixture", DEMO, "--out", out]);
    expect(again.code, again.stderr).toBe(0);
    expect(existsSync(join(out, "stray.json"))).toBe(false);

    const forced = await nftSim(["fixtures", "export", "--fixture", DEMO, "--out", "project", "--force"], work);
    expect(forced.code, forced.stderr).toBe(0);
    expect(existsSync(join(project, "src/app.ts"))).toBe(false);
    expect(existsSync(join(project, EXPORT_MARKER))).toBe(true);
  }, 180_000);
});

describe("nft-sim openapi", () => {
  it("writes the whole document to a pipe read slowly, before it exits", async () => {
    const { spawn } = await import("node:child_process");
    const child = spawn(process.execPath, [NFT_SIM, "openapi"], { env, stdio: ["ignore", "pipe", "pipe"] });
    const closed = new Promise((resolve) => child.on("close", resolve));
    child.stdout.pause(); // the pipe fills (64 KB) and the rest waits in the process
    await until(
      "the reader's buffer is full (the process now writes into a full pipe)",
      () => child.stdout.readableLength >= child.stdout.readableHighWaterMark,
    );
    let text = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => (text += chunk));
    child.stdout.resume();
    expect(await closed).toBe(0);
    expect(text.length).toBeGreaterThan(100_000);
    expect(JSON.parse(text)).toMatchObject({ openapi: "3.1.0" });
  });
});
