// `node bench/mint-cpu.ts --b <other tree> [--a <tree>] [--rounds 8] [--mints 500] [--connections 1]
// [--a-args "..."] [--b-args "..."]`: the CPU time a mint costs the simulator's process (user + system, from
// /proc/<pid>/stat), for the default world served by two project trees (A: this one by default; B: e.g. a copy from
// before a change), in alternating rounds of the same number of mints. CPU time per mint moves much less than mints per
// second when the machine is shared, so two trees compare on a busy machine too. `--a-args`/`--b-args` add flags to one
// side (e.g. `--cache <empty folder>` for a start that is not from the world cache).
import { resolve } from "node:path";
import { parseArgs } from "node:util";
import autocannon from "autocannon";
import { median } from "./lib/load.ts";
import { cpuMsOf, ROOT, stopAll } from "./lib/processes.ts";
import { startSimulator, stop, type Started } from "./lib/sim.ts";
import { inTree, learnWorld, mintRequest, worlds, type WorldSpec } from "./lib/worlds.ts";

const { values } = parseArgs({
  options: {
    a: { type: "string", default: ROOT },
    b: { type: "string" },
    rounds: { type: "string", default: "8" },
    mints: { type: "string", default: "500" },
    connections: { type: "string", default: "1" },
    "a-args": { type: "string", default: "" },
    "b-args": { type: "string", default: "" },
  },
});
if (!values.b) throw new Error("--b <project tree> is required");

const withArgs = (spec: WorldSpec, extra: string) =>
  extra ? { ...spec, args: [...spec.args, ...extra.split(" ")] } : spec;
const spec = worlds(1).base;
const a = await startSimulator(inTree(withArgs(spec, values["a-args"]), resolve(values.a)));
const b = await startSimulator(inTree(withArgs(spec, values["b-args"]), resolve(values.b)));
console.log(`from the world cache: A ${a.startup.fromCache}, B ${b.startup.fromCache}`);
const facts = await learnWorld(a.base, a.child);

/** CPU ms per mint over `mints` mints. */
async function perMint(sim: Started, mints: number): Promise<number> {
  const before = cpuMsOf(sim.child.pid);
  const result = await autocannon({
    ...mintRequest(sim.base, facts.mint),
    connections: Number(values.connections),
    amount: mints,
  });
  if (result.non2xx + result.errors + result.timeouts > 0) throw new Error(`${sim.base}: a mint failed`);
  return (cpuMsOf(sim.child.pid) - before) / mints;
}

await perMint(a, 100);
await perMint(b, 100);
const rounds: { a: number[]; b: number[] } = { a: [], b: [] };
for (let round = 0; round < Number(values.rounds); round++) {
  rounds.a.push(await perMint(a, Number(values.mints)));
  rounds.b.push(await perMint(b, Number(values.mints)));
}
const show = (ms: number[]) => ms.map((one) => one.toFixed(2)).join(", ");
console.log(`CPU ms per mint: A ${show(rounds.a)}; B ${show(rounds.b)}`);
console.log(
  `median: A ${median(rounds.a).toFixed(2)} ms, B ${median(rounds.b).toFixed(2)} ms, B/A ${(median(rounds.b) / median(rounds.a)).toFixed(2)}`,
);
await stop(a.child);
await stop(b.child);
await stopAll();
