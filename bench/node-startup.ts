// Start-up of the default world on anvil (--rpc-url, chain 56; chain 137 stays in process)
// against the same world all in process, in alternating runs: from spawning
// `npm run simulate -- --no-rpc --no-cache` to its first 200 on GET /api/v2/collection. Not part of
// `npm run bench`; run it alone: `node bench/node-startup.ts [--runs 3] [--tree <dir>] [--modes …]`;
// `--before <dir>` adds the modes of another copy of the project (a mode `before/anvil`), alternating with these;
// `--anvil-args="<flags>"` passes flags to anvil (a mode `anvil+` runs anvil with them, `anvil` without).
//
// Modes: in-process; anvil (the world's wallets impersonated on anvil); anvil-keys (signed here
// with --keys: the same derived keys, funded on anvil beforehand). Anvil is started and funded
// before the clock starts: it stands for a node the user already runs. A last, untimed run per
// anvil mode goes through a counting proxy: JSON-RPC requests (round trips) and calls per block.
import { writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { addressOf, deployerKey, keyFor } from "../src/core/keys.ts";
import { loadScenarioFile } from "../src/scenario/load.ts";
import { defaultWorld, DEFAULT_WORLD_FILE } from "../src/scenario/worlds.ts";
import { rpc } from "../test/rpc.ts";
import { startSimulator, stop } from "./lib/sim.ts";
import { simulateCommand } from "./lib/worlds.ts";
import { spawnAnvil } from "./lib/anvil.ts";
import { ROOT } from "./lib/processes.ts";

const { values } = parseArgs({
  options: {
    runs: { type: "string", default: "3" },
    tree: { type: "string" },
    before: { type: "string" },
    "anvil-args": { type: "string", default: "" },
    modes: { type: "string", default: "in-process,anvil,anvil-keys" },
  },
});
const runs = Number(values.runs);
const modes = values.modes!.split(",");
const treeOf = (mode: string) => (mode.startsWith("before/") ? values.before! : (values.tree ?? ROOT));
const genesis = Math.floor(defaultWorld().genesisTime!.getTime() / 1000);

function startAnvil(extra: string[]) {
  return spawnAnvil(["--chain-id", "56", "--timestamp", String(genesis), ...extra]);
}

/** The default world's keys as --keys takes them (the labels' derived keys, so the addresses are the in-process ones), funded on anvil. */
async function keysFileFundedOn(url: string): Promise<string> {
  const { scenario } = loadScenarioFile(DEFAULT_WORLD_FILE);
  const accounts = Object.fromEntries(
    scenario.accounts.map((account) => [account.name, keyFor(account.keyLabel ?? `account/${account.name}`)]),
  );
  const keys = { deployer: deployerKey(56), accounts };
  for (const key of [keys.deployer, ...Object.values(accounts)])
    await rpc(url, "anvil_setBalance", [addressOf(key), "0xd3c21bcecceda1000000"]);
  const file = join(tmpdir(), "nft-sim-bench-keys.json");
  writeFileSync(file, JSON.stringify(keys));
  return file;
}

/** A JSON-RPC proxy that counts HTTP requests (round trips) and the calls in them. */
function countingProxy(
  target: string,
): Promise<{ url: string; counts: { requests: number; calls: number; methods: Map<string, number> }; close(): void }> {
  const counts = { requests: 0, calls: 0, methods: new Map<string, number>() };
  const server: Server = createServer(async (req, res) => {
    let body = "";
    for await (const chunk of req) body += chunk;
    counts.requests += 1;
    const parsed = JSON.parse(body);
    counts.calls += Array.isArray(parsed) ? parsed.length : 1;
    for (const { method } of [parsed].flat() as { method: string }[])
      counts.methods.set(method, (counts.methods.get(method) ?? 0) + 1);
    const answer = await fetch(target, { method: "POST", headers: { "content-type": "application/json" }, body });
    res.writeHead(answer.status, { "content-type": "application/json" }).end(await answer.text());
  });
  return new Promise((resolve) =>
    server.listen(0, "127.0.0.1", () =>
      resolve({
        url: `http://127.0.0.1:${(server.address() as { port: number }).port}`,
        counts,
        close: () => server.close(),
      }),
    ),
  );
}

async function once(
  tagged: string,
  counting: boolean,
): Promise<{ ms: number; blocks?: number; requests?: number; calls?: number; methods?: Map<string, number> }> {
  const mode = tagged.replace(/^before\//, "").replace(/\+$/, "");
  // What npm run simulate runs, replaying the world (no world cache: a node's world is never cached); an older copy runs its sources.
  const args = tagged.startsWith("before/")
    ? ["src/cli/simulate.ts", "--no-rpc"]
    : [...simulateCommand(), "--no-rpc", "--no-cache"];
  const anvil =
    mode === "in-process"
      ? undefined
      : await startAnvil(tagged.endsWith("+") ? values["anvil-args"]!.split(" ").filter(Boolean) : []);
  const proxy = anvil && counting ? await countingProxy(anvil.url) : undefined;
  try {
    if (anvil) args.push("--rpc-url", proxy?.url ?? anvil.url);
    if (anvil && mode === "anvil-keys") args.push("--keys", await keysFileFundedOn(anvil.url));
    const started = await startSimulator({ name: tagged, scale: 1, args, cwd: treeOf(tagged) });
    await stop(started.child);
    if (!anvil) return { ms: started.startup.firstResponseMs };
    const blocks = Number(await rpc(anvil.url, "eth_blockNumber"));
    return { ms: started.startup.firstResponseMs, blocks, ...(proxy ? proxy.counts : {}) };
  } finally {
    proxy?.close();
    await anvil?.stop();
  }
}

const times = new Map<string, number[]>(modes.map((mode) => [mode, []]));
for (let run = 1; run <= runs; run += 1) {
  for (const mode of modes) {
    const { ms } = await once(mode, false);
    times.get(mode)!.push(ms);
    console.log(`run ${run} ${mode.padEnd(17)} first 200 after ${(ms / 1000).toFixed(2)} s`);
  }
}
const median = (list: number[]) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)]!;
console.log(
  `\ntree ${values.tree ?? ROOT}${values.before ? ` (before/: ${values.before})` : ""}; ${runs} alternating runs; median time to the first 200 on /api/v2/collection:`,
);
for (const [mode, list] of times)
  console.log(
    `  ${mode.padEnd(17)} ${(median(list) / 1000).toFixed(2)} s  (${list.map((ms) => (ms / 1000).toFixed(2)).join(", ")})`,
  );
for (const mode of modes.filter((mode) => !mode.endsWith("in-process"))) {
  const { blocks, requests, calls, methods } = await once(mode, true);
  console.log(
    `  ${mode}: ${blocks} blocks on anvil; ${requests} JSON-RPC requests (${(requests! / blocks!).toFixed(2)} per block), ${calls} calls (${(calls! / blocks!).toFixed(2)} per block)`,
  );
  console.log(
    `    calls by method: ${[...methods!]
      .sort(([, a], [, b]) => b - a)
      .map(([method, count]) => `${method} ${count}`)
      .join(", ")}`,
  );
}
