import { FORK_FLAGS } from "../../src/cli/fork.ts";
import { spawn } from "node:child_process";
import { once } from "node:events";
import { mkdtempSync, readFileSync } from "node:fs";
import { createServer, type AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { SUITE_FLAGS } from "../../src/cli/contract-test-options.ts";
import { EXPORT_FLAGS } from "../../src/cli/fixtures-export.ts";
import { SIMULATE_FLAGS } from "../../src/cli/options.ts";
import { killStarted, runShown, startShown } from "../docs/run-shown.ts";
import { mintItem } from "../harness.ts";
import { killSimulatorProcesses, startSimulatorProcess } from "../processes.ts";

it("npm run simulate prints the base URL, keys, RPC URLs and sample requests, serves the README's requests, and stops on Ctrl-C", async () => {
  // As the README shows it; PORT and RPC_PORT keep it off the default ports another run may hold.
  const sim = await startShown("npm run simulate", { env: { PORT: "0", RPC_PORT: "0" } });
  const output = sim.output();
  const base = sim.base;
  expect(base).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
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

  // The game client's path in the README: a read, a fault rule, time moved forward.
  const read = await runShown("curl 'http://127.0.0.1:3000/api/v2/collection?perPage=3'", { api: base });
  expect(read.code, read.stderr).toBe(0);
  expect(JSON.parse(read.stdout).collections).toHaveLength(3);
  const fault = await runShown(
    `curl -X POST http://127.0.0.1:3000/_sim/faults -H 'content-type: application/json' -d '{"match":{"path":"/api/v2/**"},"effect":{"status":503},"times":2}'`,
    { api: base },
  );
  expect(fault.code, fault.stderr).toBe(0);
  const statuses = [];
  for (let i = 0; i < 3; i++) statuses.push((await fetch(`${base}/api/v2/collection?perPage=1`)).status);
  expect(statuses).toEqual([503, 503, 200]);
  const before = (await (await fetch(`${base}/_sim/time`)).json()) as { chains: { timestamp: number }[] };
  const advance = await runShown(
    `curl -X POST http://127.0.0.1:3000/_sim/time/advance -H 'content-type: application/json' -d '{"seconds":86400}'`,
    { api: base },
  );
  expect(advance.code, advance.stderr).toBe(0);
  const after = JSON.parse(advance.stdout) as { chains: { timestamp: number }[] };
  expect(after.chains[0]!.timestamp - before.chains[0]!.timestamp).toBeGreaterThanOrEqual(86_400);

  await sim.stop();
  expect(sim.output()).toMatch(/SIGINT at \S+Z: stopping/);
});

it("docs/flags.md's example: the demo world on three chains", async () => {
  const sim = await startShown("npm run simulate -- --fixture demo --chains 56,97,137", {
    env: { PORT: "0", RPC_PORT: "0" },
  });
  try {
    expect(sim.output()).toMatch(/chain 97 .*http:\/\/127\.0\.0\.1:\d+/);
    const list = (await (await fetch(`${sim.base}/api/v2/collection`)).json()) as { count: number };
    expect(list.count).toBe(5);
  } finally {
    await sim.stop();
  }
});

afterAll(() => {
  killStarted();
  killSimulatorProcesses();
});

it("an empty world's banner shows how to make its first collection, which works as printed; a mint on it follows", async () => {
  const dir = mkdtempSync(join(tmpdir(), "empty-world-"));
  const keys = join(dir, "keys.json");
  expect((await runShown(`node src/cli/dev-keys.ts --out ${keys}`)).code).toBe(0);
  const sim = await startSimulatorProcess([
    "--fixture",
    "none",
    "--keys",
    keys,
    "--chains",
    "56",
    "--port",
    "0",
    "--no-rpc",
  ]);
  try {
    const output = sim.output();
    expect(output).not.toContain("<collection address>");
    expect(output).toMatch(/sim-studio\s+studio\s+0x70997970c51812dc3a010c7d01b50e0d17dc79c8/);
    const printed = /The world has no collection yet.*\n(\s+curl -X POST .*\\\n\s+-d '.*')/.exec(output);
    expect(printed, output).not.toBeNull();
    const created = await runShown(printed![1]!.trim().replace(/\\\n\s+/, ""));
    expect(created.code, created.stderr).toBe(0);
    const { address } = JSON.parse(created.stdout) as { address: string };
    const minted = await mintItem(
      { url: sim.base },
      {
        collection: address,
        chainId: 56,
        apiKey: "sim-studio",
        recipient: "0x70997970c51812dc3a010c7d01b50e0d17dc79c8",
        item: { name: "First", initialSupply: 1 },
      },
    );
    expect(minted.status, JSON.stringify(minted.body)).toBe(200);
  } finally {
    await sim.stop();
  }
});

it("refuses a bad flag with the usage text and exit code 2", async () => {
  const child = spawn(process.execPath, ["src/cli/simulate.ts", "--port", "http"], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stderr.on("data", (chunk) => (output += chunk));
  const [code] = await once(child, "close");
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
    const [code] = await once(child, "close");
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
  const sim = await startSimulatorProcess(["--fixture", "demo", "--host", "0.0.0.0", "--port", "0", "--no-rpc"]);
  await sim.stop();
  expect(sim.output()).toContain("control    off (not on loopback; set --admin-token to turn it on)");
});

describe("--help documents every flag the parser takes, and only those", () => {
  const commands = [
    {
      command: "simulate",
      flags: { ...SIMULATE_FLAGS, ...FORK_FLAGS },
      help: () => runShown("npm run simulate -- --help"),
    },
    { command: "contract-test", flags: SUITE_FLAGS, help: () => runShown("npm run contract-test -- --help") },
    { command: "fixtures:export", flags: EXPORT_FLAGS, help: () => runShown("npm run fixtures:export -- --help") },
  ];
  for (const { command, flags, help } of commands) {
    it(`npm run ${command} -- --help`, async () => {
      const { code, stdout } = await help();
      expect(code).toBe(0);
      const usage = stdout.slice(stdout.indexOf("Usage:"));
      const documented = new Set([...usage.matchAll(/(?<![\w-])--([a-z][a-z-]*)/g)].map(([, flag]) => flag!));
      expect([...documented].sort()).toEqual(Object.keys(flags).sort());
      for (const [flag, { short }] of Object.entries(flags) as [string, { short?: string }][])
        if (short) expect(usage).toContain(`-${short}, --${flag}`);
    });
  }

  it("docs/flags.md's tables list every flag of each command", () => {
    const page = readFileSync("docs/flags.md", "utf8");
    const section = (from: string, to: string) => page.slice(page.indexOf(from), page.indexOf(to));
    const tables = [
      { flags: SIMULATE_FLAGS, table: section("## `npm run simulate`", "**While it starts.**") },
      { flags: SUITE_FLAGS, table: section("## `npm run contract-test`", "Exit codes:") },
      { flags: EXPORT_FLAGS, table: section("## `npm run fixtures:export`", "`fixtures:generate` writes") },
    ];
    for (const { flags, table } of tables)
      for (const flag of Object.keys(flags)) if (flag !== "help") expect(table, `--${flag}`).toMatch(`\`--${flag}`);
  });
});

describe("a port in use is told before the world loads: exit 1, one line naming it", () => {
  it.each(["--port", "--rpc-port"])("%s", async (flag) => {
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, "127.0.0.1", resolve));
    const busy = (taken.address() as AddressInfo).port;
    try {
      // The default world, not cached: its replay would print progress lines if it began.
      const ports =
        flag === "--port" ? ["--port", String(busy), "--rpc-port", "0"] : ["--port", "0", "--rpc-port", String(busy)];
      const child = spawn(process.execPath, ["src/cli/simulate.ts", "--no-cache", ...ports], {
        stdio: ["ignore", "pipe", "pipe"],
      });
      let stdout = "";
      let stderr = "";
      child.stdout.on("data", (chunk) => (stdout += chunk));
      child.stderr.on("data", (chunk) => (stderr += chunk));
      const [code] = await once(child, "close");
      expect(code).toBe(1);
      expect(stderr).toBe(
        `Port ${busy} is already in use: stop what uses it, or pick another with --port / --rpc-port (--no-rpc serves no JSON-RPC).\n`,
      );
      expect(stdout).not.toContain("replaying chain");
    } finally {
      taken.close();
    }
  });
});
