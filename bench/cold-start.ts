// `node bench/cold-start.ts <world.json> [--tree <dir>] [--env NAME=value] [--flag <node flag>] [--runs 2] [--chain <id>]`: an imported
// world's cold start, A/B. The world (a scenario, e.g. the imported.json `bench/import.ts` leaves in its folder) is
// started as `npm run simulate` starts it from the sources (`--no-rpc`, no world cache), each start a process of its
// own, in alternating rounds: this tree, then `--tree` (a copy of the project with a change, or without one) or this
// tree with `--env` set or Node started with `--flag`, and again. Prints each start's CPU time (user + system) up to its banner, the wall clock to the
// banner and the load average beside it. `--chain 56`: the world cut to that chain's collections, their items and
// history (a chain replays its blocks one after another, so the larger chain's replay alone is the floor of a start).
import { readFileSync, writeFileSync } from "node:fs";
import { loadavg } from "node:os";
import { dirname, join } from "node:path";
import { parseArgs } from "node:util";
import { cpuMsOf, ROOT, stopAll } from "./lib/processes.ts";
import { startSimulator } from "./lib/sim.ts";
import type { Scenario, ScenarioAction } from "../src/schemas/scenario.ts";

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    tree: { type: "string" },
    runs: { type: "string", default: "2" },
    env: { type: "string", multiple: true, default: [] },
    flag: { type: "string", multiple: true, default: [] },
    chain: { type: "string" },
  },
});
if (!positionals[0]) throw new Error("usage: node bench/cold-start.ts <world.json> [--tree <dir>] [--runs 2]");
const world = values.chain ? oneChain(positionals[0], Number(values.chain)) : positionals[0];

/** The scenario at `file` cut to one chain: its collections, their items, and the entries on them; written beside it. */
function oneChain(file: string, chainId: number): string {
  const scenario = JSON.parse(readFileSync(file, "utf8")) as Scenario;
  const collections = new Set(scenario.collections.filter((c) => c.chainId === chainId).map((c) => c.id));
  const items = new Set(scenario.items.filter((item) => collections.has(item.collection)).map((item) => item.id));
  const listings = new Set(
    scenario.timeline.flatMap((entry) => (entry.action === "list" && items.has(entry.item) ? [entry.listing] : [])),
  );
  const onChain = (entry: ScenarioAction) =>
    "item" in entry
      ? items.has(entry.item)
      : "items" in entry
        ? entry.items.every(({ item }) => items.has(item))
        : "listing" in entry && listings.has(entry.listing);
  const cut: Scenario = {
    ...scenario,
    chains: scenario.chains.filter((chain) => (typeof chain === "number" ? chain : chain.chainId) === chainId),
    collections: scenario.collections.filter((c) => collections.has(c.id)),
    items: scenario.items.filter((item) => items.has(item.id)),
    timeline: scenario.timeline.filter(onChain),
  };
  const out = join(dirname(file), `chain-${chainId}.json`);
  writeFileSync(out, JSON.stringify(cut));
  console.log(
    `${out}: ${cut.collections.length} collections, ${cut.items.length} items, ${cut.timeline.length} entries`,
  );
  return out;
}
// `--env` and `--flag` apply to the second side only (so one tree can be measured with and without them).
const otherEnv = Object.fromEntries(values.env!.map((pair) => pair.split("=", 2) as [string, string]));
const trees = [{ name: "this tree", cwd: ROOT, env: {}, flags: [] as string[] }];
if (values.tree || values.env!.length || values.flag!.length)
  trees.push({
    name: [values.tree ?? "this tree", ...values.env!, ...values.flag!].join(" "),
    cwd: values.tree ?? ROOT,
    env: otherEnv,
    flags: values.flag!,
  });

const rows: Record<string, string | number>[] = [];
for (let round = 1; round <= Number(values.runs); round++) {
  for (const tree of trees) {
    const load = loadavg()[0]!;
    const saved = { ...process.env };
    Object.assign(process.env, tree.env);
    const started = await startSimulator(
      {
        name: tree.name,
        scale: 0,
        args: [
          "src/cli/simulate.ts",
          "--fixture",
          world,
          "--no-rpc",
          "--no-cache",
          "--public-url",
          "http://127.0.0.1:3000",
        ],
        cwd: tree.cwd,
      },
      tree.flags,
      { withinMs: 1_800_000 },
    );
    process.env = saved;
    const cpu = cpuMsOf(started.child.pid) / 1000;
    await started.child.stop();
    rows.push({
      round,
      tree: tree.name,
      "CPU s": +cpu.toFixed(1),
      "banner s": +(started.startup.readyLineMs / 1000).toFixed(1),
      load: `${load.toFixed(1)}→${loadavg()[0]!.toFixed(1)}`,
    });
    console.log(JSON.stringify(rows.at(-1)));
  }
}
await stopAll();
console.table(rows);
