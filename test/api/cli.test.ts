import { execFile, spawn } from "node:child_process";
import { once } from "node:events";
import { readFileSync } from "node:fs";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { SUITE_FLAGS } from "../../src/cli/contract-test-options.ts";
import { EXPORT_FLAGS } from "../../src/cli/fixtures-export.ts";
import { SIMULATE_FLAGS } from "../../src/cli/options.ts";

const run = promisify(execFile);

it("npm run simulate's program prints the base URL, keys, RPC URLs and sample requests, serves, and stops cleanly on SIGTERM", async () => {
  const child = spawn(process.execPath, ["src/cli/simulate.ts", "--port", "0", "--rpc-port", "0"], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout.on("data", (chunk) => (output += chunk));
  child.stderr.on("data", (chunk) => (output += chunk));
  const deadline = Date.now() + 60_000;
  while (!output.includes("Ctrl-C stops") && Date.now() < deadline && child.exitCode === null)
    await new Promise((r) => setTimeout(r, 100));
  expect(output).toContain("Ctrl-C stops");

  const base = output.match(/API\s+(http:\/\/127\.0\.0\.1:\d+)\/api\/v2/)![1];
  // Not a terminal: the replay's progress is a few plain lines per chain, ending at 100%, before the banner.
  for (const chainId of [56, 137]) {
    const done = output.indexOf(`replaying chain ${chainId}: 100%`);
    expect(done, `progress of chain ${chainId}`).toBeGreaterThan(output.indexOf(`replaying chain ${chainId}: 25%`));
    expect(done).toBeLessThan(output.indexOf("ready in"));
  }
  expect(output).toContain(`API docs   ${base}/docs`);
  expect(output).toContain(`${base}/openapi.json`);
  expect(output).toContain(
    "clock      chain time 2025-06-01T12:00:00Z from the world; --wall-clock to follow real time",
  );
  expect(output).toContain(`dashboard  ${base}/`);
  expect(output).toContain(
    `control    ${base}/_sim  (time, snapshots, reset, collections, API keys, faults, request log; see /docs)`,
  );
  expect(output).toContain("state      not kept (--state <dir> keeps every change across restarts)");
  const root = await fetch(`${base}/`);
  expect(root.status).toBe(200);
  expect(await root.text()).toContain('<script type="module" src="/dashboard/app.js">');
  expect(output).toMatch(/chain 56 .*http:\/\/127\.0\.0\.1:\d+/);
  expect(output).toMatch(/chain 137 .*http:\/\/127\.0\.0\.1:\d+/);
  expect(output).toMatch(/demo-studio-key\s+studio\s+0x[0-9a-f]{40}/);
  expect(output).toContain(`curl '${base}/api/v2/collection`);
  expect(output).toContain(`curl -X POST '${base}/api/v2/item/new?apiKey=`);
  // Every sample request in the banner works as printed, the mint included.
  const samples = [...output.matchAll(/curl (-X POST )?'([^']+)'(?: -H '[^']+' \\\s+-d '([^']+)')?/g)];
  expect(samples).toHaveLength(4);
  for (const [, post, url, body] of samples) {
    const init = post ? { method: "POST", headers: { "content-type": "application/json" }, body } : {};
    const answer = await fetch(url!, init);
    expect(answer.status, `${url} ${await answer.text()}`).toBe(200);
  }

  child.kill("SIGTERM");
  const [code] = await once(child, "exit");
  expect(code).toBe(0);
  expect(output).toMatch(/SIGTERM at \S+Z: stopping/);
});

it("refuses a bad flag with the usage text and exit code 2", async () => {
  const child = spawn(process.execPath, ["src/cli/simulate.ts", "--port", "http"], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stderr.on("data", (chunk) => (output += chunk));
  const [code] = await once(child, "exit");
  expect(code).toBe(2);
  expect(output).toContain("--port: 'http' is not a valid number");
  expect(output).toContain("Usage: npm run simulate");
});

describe("refuses before anything loads, with exit code 2 and no stack trace", () => {
  const refusal = async (args: string[], env: Record<string, string> = {}) => {
    const child = spawn(process.execPath, ["src/cli/simulate.ts", "--fixture", "demo", "--port", "0", ...args], {
      stdio: ["ignore", "pipe", "pipe"],
      env: { ...process.env, ...env },
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk) => (stdout += chunk));
    child.stderr.on("data", (chunk) => (stderr += chunk));
    const [code] = await once(child, "exit");
    return { code, stdout, stderr };
  };

  it.each([
    ["--admin-token ''", ["--admin-token", ""], {}, /--admin-token \(or ADMIN_TOKEN\) is empty/],
    ["ADMIN_TOKEN='  '", [], { ADMIN_TOKEN: "  " }, /--admin-token \(or ADMIN_TOKEN\) is empty/],
    [
      "--rpc-host 0.0.0.0 without a token",
      ["--rpc-host", "0.0.0.0", "--rpc-port", "0"],
      {},
      /^--rpc-host 0\.0\.0\.0: .*set --admin-token/,
    ],
    [
      "--contracts without --rpc-url",
      ["--contracts", "nodes.json"],
      {},
      /^--contracts \(or CONTRACTS_FILE\) records contracts on nodes given by --rpc-url, and there is none/,
    ],
  ])("%s", async (_what, args, env, message) => {
    const { code, stdout, stderr } = await refusal(args, env);
    expect(code).toBe(2);
    expect(stderr).toMatch(message);
    expect(stderr).not.toMatch(/^\s+at /m);
    expect(stdout).toBe("");
  });
});

it("off loopback without --admin-token, the banner says the control API is off", async () => {
  const child = spawn(
    process.execPath,
    ["src/cli/simulate.ts", "--fixture", "demo", "--host", "0.0.0.0", "--port", "0", "--no-rpc"],
    { stdio: ["ignore", "pipe", "pipe"] },
  );
  let output = "";
  child.stdout.on("data", (chunk) => (output += chunk));
  child.stderr.on("data", (chunk) => (output += chunk));
  const deadline = Date.now() + 60_000;
  while (!output.includes("Ctrl-C stops") && Date.now() < deadline && child.exitCode === null)
    await new Promise((r) => setTimeout(r, 100));
  child.kill("SIGTERM");
  await once(child, "exit");
  expect(output).toContain("control    off (not on loopback; set --admin-token to turn it on)");
});

describe("--help documents every flag the parser takes, and only those", () => {
  const commands = [
    { name: "simulate", flags: SIMULATE_FLAGS },
    { name: "contract-test", flags: SUITE_FLAGS },
    { name: "fixtures export", flags: EXPORT_FLAGS },
  ];
  for (const { name, flags } of commands) {
    it(`nft-sim ${name} --help`, async () => {
      // Vite's BASE_URL ("/") is in vitest's environment; contract-test would read it as its target.
      const { BASE_URL: _vite, ...env } = process.env;
      const { stdout } = await run(process.execPath, ["src/cli/nft-sim.ts", ...name.split(" "), "--help"], { env });
      const documented = new Set([...stdout.matchAll(/(?<![\w-])--([a-z][a-z-]*)/g)].map(([, flag]) => flag!));
      expect([...documented].sort()).toEqual(Object.keys(flags).sort());
      for (const [flag, { short }] of Object.entries(flags) as [string, { short?: string }][])
        if (short) expect(stdout).toContain(`-${short}, --${flag}`);
    });
  }

  it("docs/flags.md's table of simulate flags lists every one", () => {
    const page = readFileSync("docs/flags.md", "utf8");
    const table = page.slice(page.indexOf("| flag | env | default | meaning |"), page.indexOf("**While it starts.**"));
    for (const flag of Object.keys(SIMULATE_FLAGS)) expect(table, `--${flag}`).toContain(`\`--${flag}\``);
  });
});
