// `node bench/team.ts [--instances 1,2] [--mints 200] [--in-flight 8] [--pool 2×N] [--rounds 3] [--poll 1000]
//  [--before <dir>] [--tree <dir>] [--command src/cli/simulate.ts] [--anvil <binary>]`: a team's shared environment under a write load. For each count N of
// --instances, a fresh anvil (chain 56), N simulator processes on it with one keys file and one contracts file (the
// first deploys, the others attach), one collection, and all N loaded at once, each by a client of its own keeping
// --in-flight mints in flight until it has had --mints answers, every mint with the one API key the team shares
// (sim-bob). Then every instance's list of the collection's items is read until all N answer it alike (bytes equal,
// every minted token there): how long after the last mint's answer that took, against the poll interval.
//
// The tree benchmarked signs for sim-bob with a pool of --pool wallets (its keys file gives the account a list of
// keys; default twice the instances); a tree given by --before (another copy of the project, e.g. main's) is given
// the account's one key, as it takes it. The modes run in alternating rounds (before, after, before, after, …, a
// fresh anvil each), and the table gives the medians and, per N, after ÷ before. `--command`: what each tree runs
// (its path in the tree; `dist/bundle/simulate.js` where a tree has its bundle and no full node_modules: the bundle
// still loads `hardhat` and `@nomicfoundation/edr` from the tree's node_modules for the chains it runs in process);
// `--anvil`: the anvil binary (default the one npm installed here).
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { mnemonicToAccount } from "viem/accounts";
import { spawnAnvil, ANVIL_BINARY } from "./lib/anvil.ts";
import { children, cpuMsOf, freePort, ROOT, sleep, startNode } from "./lib/processes.ts";

const { values } = parseArgs({
  options: {
    instances: { type: "string", default: "1,2" },
    mints: { type: "string", default: "200" },
    "in-flight": { type: "string", default: "8" },
    pool: { type: "string" },
    rounds: { type: "string", default: "3" },
    poll: { type: "string", default: "1000" },
    before: { type: "string" },
    tree: { type: "string" },
    command: { type: "string", default: "src/cli/simulate.ts" },
    anvil: { type: "string" },
  },
});
const counts = values.instances!.split(",").map(Number);
const mintsEach = Number(values.mints);
const inFlight = Number(values["in-flight"]);
const rounds = Number(values.rounds);
const poll = Number(values.poll);
const poolOf = (instances: number) => Number(values.pool ?? Math.max(2, 2 * instances));
const ANVIL = values.anvil ?? ANVIL_BINARY;
const MNEMONIC = "test test test test test test test test test test test junk";
const key = (addressIndex: number) =>
  `0x${Buffer.from(mnemonicToAccount(MNEMONIC, { addressIndex }).getHdKey().privateKey!).toString("hex")}`;
const recipient = mnemonicToAccount(MNEMONIC, { addressIndex: 1 }).address;

interface Mode {
  name: "before" | "after";
  tree: string;
}
const modes: Mode[] = [
  ...(values.before ? [{ name: "before" as const, tree: values.before }] : []),
  { name: "after", tree: values.tree ?? ROOT },
];

interface Run {
  mode: Mode["name"];
  instances: number;
  pool: number;
  mintsPerSecond: number;
  statuses: Map<number, number>;
  tokenIds: number;
  distinct: number;
  alikeAfterMs: number;
  /** CPU time the simulator processes (all of them) and anvil spent per mint under the load, in ms. */
  simulatorCpuMs: number;
  anvilCpuMs: number;
}

/** A fresh anvil whose first `accounts` development accounts are funded (the deployer, alice, bob's pool). */
function startAnvil(accounts: number) {
  return spawnAnvil(["--chain-id", "56", "--accounts", String(accounts)], ANVIL);
}

async function post(base: string, path: string, body: unknown) {
  const response = await fetch(`${base}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as Record<string, any> };
}

async function runOnce(mode: Mode, instances: number): Promise<Run> {
  const pool = poolOf(instances);
  const dir = mkdtempSync(join(tmpdir(), "nft-sim-team-bench-"));
  // Accounts 0 (the deployer), 1 (alice, the collection's owner), 2… (bob's wallets).
  const bob = mode.name === "before" ? key(2) : Array.from({ length: pool }, (_, i) => key(2 + i));
  writeFileSync(join(dir, "keys.json"), JSON.stringify({ deployer: key(0), accounts: { alice: key(1), bob } }));
  const anvil = await startAnvil(2 + pool);
  const started: ReturnType<typeof startNode>[] = [];
  try {
    const bases: string[] = [];
    for (let i = 0; i < instances; i++) {
      const port = await freePort();
      const args = [values.command!, "--fixture", "none", "--chains", "56", "--rpc-url", anvil.url, "--no-rpc"];
      args.push("--keys", join(dir, "keys.json"), "--contracts", join(dir, "contracts.json"), "--no-cache");
      args.push("--poll-interval", String(poll), "--port", String(port));
      const child = startNode(args, [], mode.tree);
      children.add(child);
      started.push(child);
      await child.waitFor(/Ctrl-C stops/, 120_000);
      bases.push(`http://127.0.0.1:${port}`);
    }
    const created = await post(bases[0]!, "/_sim/collections", {
      chainId: 56,
      name: "Team Bench",
      owner: "sim-alice",
      minters: ["sim-bob"],
    });
    if (created.status !== 200) throw new Error(`the collection was refused: ${JSON.stringify(created.body)}`);
    const collection = created.body.address as string;
    let n = 0;
    const mint = (base: string) =>
      post(base, "/api/v2/item/new?apiKey=sim-bob", {
        collectionAddress: collection,
        recipient,
        chainId: 56,
        item: { name: `Bench Relic ${n++}`, imageUrl: `https://img.example/${n}.png`, initialSupply: 1 },
      });
    // Warm-up: a few mints through each instance, not counted.
    await Promise.all(bases.map(async (base) => Promise.all(Array.from({ length: inFlight }, () => mint(base)))));

    const answers: Awaited<ReturnType<typeof mint>>[] = [];
    const cpu = () => ({
      simulators: started.reduce((sum, child) => sum + cpuMsOf(child.pid), 0),
      anvil: cpuMsOf(anvil.pid),
    });
    const cpuBefore = cpu();
    const startedAt = performance.now();
    await Promise.all(
      bases.map((base) => {
        let left = mintsEach;
        const client = async () => {
          while (left > 0) {
            left -= 1;
            answers.push(await mint(base));
          }
        };
        return Promise.all(Array.from({ length: inFlight }, client));
      }),
    );
    const lastAnswerAt = performance.now();
    const cpuAfter = cpu();
    const seconds = (lastAnswerAt - startedAt) / 1000;
    const statuses = new Map<number, number>();
    for (const { status } of answers) statuses.set(status, (statuses.get(status) ?? 0) + 1);
    const tokenIds = answers.flatMap(({ body }) => (body.tokenIds as number[] | undefined) ?? []);

    // Every instance answers the collection's items alike, every minted token among them.
    let alikeAfterMs = NaN;
    for (const deadline = lastAnswerAt + 60_000; performance.now() < deadline; await sleep(5)) {
      const lists = await Promise.all(
        bases.map(async (base) => (await fetch(`${base}/_sim/collections/${collection}/items?chainId=56`)).text()),
      );
      const held = new Set((JSON.parse(lists[0]!).items as { tokenId: number }[]).map(({ tokenId }) => tokenId));
      if (lists.every((list) => list === lists[0]) && tokenIds.every((id) => held.has(id))) {
        alikeAfterMs = performance.now() - lastAnswerAt;
        break;
      }
    }
    return {
      mode: mode.name,
      instances,
      pool: mode.name === "before" ? 1 : pool,
      mintsPerSecond: (statuses.get(200) ?? 0) / seconds,
      statuses,
      tokenIds: tokenIds.length,
      distinct: new Set(tokenIds).size,
      alikeAfterMs,
      simulatorCpuMs: (cpuAfter.simulators - cpuBefore.simulators) / answers.length,
      anvilCpuMs: (cpuAfter.anvil - cpuBefore.anvil) / answers.length,
    };
  } finally {
    await Promise.all(started.map((child) => child.stop()));
    started.forEach((child) => children.delete(child));
    await anvil.stop();
  }
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)]!;
const runs: Run[] = [];
for (let round = 1; round <= rounds; round++) {
  for (const instances of counts) {
    for (const mode of modes) {
      const run = await runOnce(mode, instances);
      runs.push(run);
      const shown = [...run.statuses].map(([status, count]) => `${count} × ${status}`).join(", ");
      console.log(
        `round ${round}, ${mode.name}, ${instances} instance(s), pool ${run.pool}: ${run.mintsPerSecond.toFixed(1)} mints/s ` +
          `(${shown}; ${run.distinct} of ${run.tokenIds} token ids distinct; alike on all after ${Math.round(run.alikeAfterMs)} ms; ` +
          `CPU per mint: simulators ${run.simulatorCpuMs.toFixed(2)} ms, anvil ${run.anvilCpuMs.toFixed(2)} ms)`,
      );
    }
  }
}

console.log(
  `\n${mintsEach} mints per instance, ${inFlight} in flight on each, one API key; ${rounds} alternating rounds, medians; ` +
    `poll ${poll} ms; tree ${values.tree ?? ROOT}${values.before ? `, before: ${values.before}` : ""}`,
);
console.log(
  "| instances | mode | wallets in the pool | mints/s (all instances) | after ÷ before | refused | token ids distinct | alike on all after (max) | CPU per mint: simulators, anvil |",
);
console.log("|---:|---|---:|---:|---:|---:|---|---:|---:|");
for (const instances of counts) {
  const rate = (mode: Mode["name"]) =>
    median(runs.filter((run) => run.mode === mode && run.instances === instances).map((run) => run.mintsPerSecond));
  for (const mode of modes) {
    const mine = runs.filter((run) => run.mode === mode.name && run.instances === instances);
    const answered = mine.reduce((sum, run) => sum + [...run.statuses.values()].reduce((a, b) => a + b, 0), 0);
    const refused = answered - mine.reduce((sum, run) => sum + (run.statuses.get(200) ?? 0), 0);
    const distinct = mine.every((run) => run.distinct === run.tokenIds);
    const alike = Math.max(...mine.map((run) => run.alikeAfterMs));
    const ratio = mode.name === "after" && values.before ? `${(rate("after") / rate("before")).toFixed(2)}×` : "";
    const cpu = (of: (run: Run) => number) => median(mine.map(of)).toFixed(2);
    console.log(
      `| ${instances} | ${mode.name} | ${mine[0]!.pool} | ${rate(mode.name).toFixed(1)} | ${ratio} | ${refused} of ${answered} | ${distinct ? "yes" : "NO"} | ` +
        `${Number.isNaN(alike) ? "never (60 s)" : `${Math.round(alike)} ms`} | ${cpu((run) => run.simulatorCpuMs)}, ${cpu((run) => run.anvilCpuMs)} ms |`,
    );
  }
}
if (counts.length > 1) {
  const one = Math.min(...counts);
  for (const mode of modes) {
    const rates = counts.map((instances) =>
      median(
        runs.filter((run) => run.mode === mode.name && run.instances === instances).map((run) => run.mintsPerSecond),
      ),
    );
    const first = rates[counts.indexOf(one)]!;
    console.log(
      `${mode.name}: ${counts.map((instances, i) => `${instances} → ${(rates[i]! / first).toFixed(2)}×`).join(", ")} of ${one} instance(s)`,
    );
  }
}
