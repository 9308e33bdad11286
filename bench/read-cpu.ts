// `node bench/read-cpu.ts --b <other tree> [--a <tree>] [--rounds 9] [--seconds 2] [scenario ...]`: the CPU time
// the simulator spends per read, for the same world served by two project trees (A: this one, or --a; B: e.g. a
// scratch copy of another commit), measured in alternating rounds. Unlike requests per second, a process's CPU time
// per request hardly moves when other work shares the machine, so two trees compare on a busy one. Prints each
// tree's µs of CPU (user + system, from /proc/<pid>/stat) per request and B ÷ A: the median of the rounds' ratios.
// Scenarios: the reads of bench/compare.ts (list, sorted, filtered, collection, history, deep).
import { resolve } from "node:path";
import { parseArgs } from "node:util";
import { load, median } from "./lib/load.ts";
import { cpuMsOf, ROOT, stopAll } from "./lib/processes.ts";
import { startSimulator, stop, type Started } from "./lib/sim.ts";
import { inTree, learnWorld, worlds, type WorldFacts } from "./lib/worlds.ts";

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    a: { type: "string", default: ROOT },
    b: { type: "string" },
    seconds: { type: "string", default: "2" },
    rounds: { type: "string", default: "9" },
    connections: { type: "string", default: "8" },
  },
});
if (!values.b) throw new Error("--b <project tree> is required");
const ALL = ["list", "sorted", "filtered", "collection", "history", "deep"];
const scenarios = positionals.length ? positionals : ALL;

function pathOf(facts: WorldFacts, scenario: string): string {
  const { collection, tokenId, events } = facts.hot;
  const first = facts.collections[0]!;
  const paths: Record<string, string> = {
    list: "/api/v2/collection",
    sorted: "/api/v2/collection?sortBy=volume_all",
    filtered: `/api/v2/collection?chainId=${first.chainId}&genre=${encodeURIComponent(first.genre)}`,
    collection: `/api/v2/collection/${first.address}`,
    history: `/api/v2/item/events/${collection}/${tokenId}`,
    deep: `/api/v2/item/events/${collection}/${tokenId}?page=${Math.floor(events / 24)}`,
  };
  if (!paths[scenario]) throw new Error(`unknown scenario ${scenario}`);
  return paths[scenario];
}

/** µs of CPU per request while the simulator answers `path` under load for `seconds`. */
async function cpuPerRequest(sim: Started, path: string, seconds: number): Promise<number> {
  const before = cpuMsOf(sim.child.pid) * 1000;
  const { requests } = await load({ url: sim.base + path, connections: Number(values.connections), seconds });
  return (cpuMsOf(sim.child.pid) * 1000 - before) / requests;
}

const spec = worlds(1).base;
const a = await startSimulator(inTree(spec, resolve(values.a)));
const b = await startSimulator(inTree(spec, resolve(values.b)));
const facts = await learnWorld(a.base, a.child);
for (const scenario of scenarios) {
  const path = pathOf(facts, scenario);
  await cpuPerRequest(a, path, 1);
  await cpuPerRequest(b, path, 1);
  const rounds: { a: number; b: number }[] = [];
  for (let round = 0; round < Number(values.rounds); round++) {
    const [ra, rb] = [
      await cpuPerRequest(a, path, Number(values.seconds)),
      await cpuPerRequest(b, path, Number(values.seconds)),
    ];
    rounds.push({ a: ra, b: rb });
  }
  const [ma, mb] = [median(rounds.map((r) => r.a)), median(rounds.map((r) => r.b))];
  const ratio = median(rounds.map((r) => r.b / r.a));
  console.log(
    `${scenario.padEnd(10)} A ${ma.toFixed(0)} µs CPU/req  B ${mb.toFixed(0)} µs CPU/req  B/A ${ratio.toFixed(2)}`,
  );
}
await stop(a.child);
await stop(b.child);
await stopAll();
