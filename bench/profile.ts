// `npm run bench:profile -- [scenario ...]`: runs the simulator under `node --cpu-prof`,
// loads it with one scenario at a time and prints the hottest frames.
// Scenarios: startup, list, sorted, collection, history, deep, mint (16 connections), mint1 (one) (default: all).
// --tree <dir> profiles another copy of the project (e.g. a scratch copy with a change); --state gives each scenario a
// fresh journal (what --state costs).
// Profiles go to bench/results/profiles/<scenario>/, summaries to bench/results/profiles/summary.json.
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { hotFrames } from "./lib/cpuprofile.ts";
import { load } from "./lib/load.ts";
import { ROOT, sleep, stopAll } from "./lib/processes.ts";
import { startSimulator, stop } from "./lib/sim.ts";
import { generateScaledWorld, inTree, learnWorld, mintRequest, worlds } from "./lib/worlds.ts";

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    tree: { type: "string" },
    seconds: { type: "string", default: "5" },
    scale: { type: "string", default: "1" },
    top: { type: "string", default: "20" },
    // A fresh journal for each scenario: what --state costs (e.g. `mint --state`).
    state: { type: "boolean", default: false },
  },
});
const SCENARIOS = ["startup", "list", "sorted", "collection", "history", "deep", "mint", "mint1"] as const;
type Scenario = (typeof SCENARIOS)[number];
const chosen = (positionals.length ? positionals : SCENARIOS) as Scenario[];
const seconds = Number(values.seconds);
const { base, scaled } = worlds(Number(values.scale));
const chosenWorld = inTree(Number(values.scale) === 1 ? base : scaled, values.tree ? resolve(values.tree) : undefined);
const worldFor = (scenario: string) =>
  values.state
    ? {
        ...chosenWorld,
        args: [...chosenWorld.args, "--state", mkdtempSync(join(tmpdir(), `nft-sim-profile-${scenario}-`))],
      }
    : chosenWorld;
if (Number(values.scale) !== 1) generateScaledWorld(Number(values.scale));
const out = `${ROOT}bench/results/profiles`;
const summary: Record<string, unknown> = {};

for (const scenario of chosen) {
  if (!SCENARIOS.includes(scenario)) throw new Error(`unknown scenario ${scenario}; one of ${SCENARIOS.join(", ")}`);
  const dir = `${out}/${scenario}`;
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const profileFile = `${dir}/${scenario}.cpuprofile`;
  process.env.BENCH_PROFILE_OUT = profileFile;
  // Start-up is profiled from process start to exit; a load, only while the load runs.
  const flags =
    scenario === "startup" ? ["--cpu-prof", "--cpu-prof-dir", dir] : ["--import", `${ROOT}bench/lib/profile-hook.ts`];
  const sim = await startSimulator(worldFor(scenario), flags);
  try {
    if (scenario !== "startup") {
      const facts = await learnWorld(sim.base, sim.child);
      const { collection, tokenId, events } = facts.hot;
      const paths: Record<Exclude<Scenario, "startup" | "mint" | "mint1">, string> = {
        list: "/api/v2/collection",
        sorted: "/api/v2/collection?sortBy=volume_all",
        collection: `/api/v2/collection/${facts.collections[0]!.address}`,
        history: `/api/v2/item/events/${collection}/${tokenId}`,
        deep: `/api/v2/item/events/${collection}/${tokenId}?page=${Math.floor(events / 24)}`,
      };
      const run = (duration: number) =>
        scenario === "mint" || scenario === "mint1"
          ? load({
              ...mintRequest(sim.base, facts.mint),
              connections: scenario === "mint1" ? 1 : 16,
              seconds: duration,
            })
          : load({ url: sim.base + paths[scenario], connections: 32, seconds: duration });
      await run(1);
      sim.child.process.kill("SIGUSR2");
      await sleep(200);
      const sample = await run(seconds);
      sim.child.process.kill("SIGUSR2");
      while (!existsSync(profileFile)) await sleep(50);
      await sleep(500);
      console.log(`${scenario}: ${Math.round(sample.rps)} req/s under the profiler`);
    }
  } finally {
    await stop(sim.child);
  }
  const file = readdirSync(dir).find((name) => name.endsWith(".cpuprofile"));
  if (!file) throw new Error(`no profile was written in ${dir}`);
  const hot = hotFrames(`${dir}/${file}`, ROOT, Number(values.top));
  summary[scenario] = hot;
  console.log(`\n== ${scenario} (${hot.samples} samples, ${hot.busyPct}% busy)`);
  console.log(
    "by area:",
    Object.entries(hot.byArea)
      .slice(0, 12)
      .map(([k, v]) => `${k} ${v}%`)
      .join(", "),
  );
  console.log("self:");
  for (const f of hot.self) console.log(`  ${String(f.selfPct).padStart(5)}%  ${f.frame}`);
  console.log("total:");
  for (const f of hot.total) console.log(`  ${String(f.totalPct).padStart(5)}%  ${f.frame}`);
}
writeFileSync(`${out}/summary.json`, JSON.stringify(summary, null, 2) + "\n");
await stopAll();
