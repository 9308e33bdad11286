// `node bench/compare.ts --b <other tree> [scenario ...]`: the same world served by two
// project trees (A: this one, or --a; B: e.g. a scratch copy with a proposed change),
// measured in alternating rounds; prints B's throughput as a ratio of A's.
// Scenarios: list, sorted, filtered, collection, history, deep, mint1, mint16, startup.
import { resolve } from "node:path";
import { parseArgs } from "node:util";
import { load, median, summarize, type Sample } from "./lib/load.ts";
import { ROOT, stopAll } from "./lib/processes.ts";
import { startSimulator, stop, type Started } from "./lib/sim.ts";
import { generateScaledWorld, inTree, learnWorld, mintRequest, worlds, type WorldFacts } from "./lib/worlds.ts";

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    a: { type: "string", default: ROOT },
    b: { type: "string" },
    seconds: { type: "string", default: "3" },
    rounds: { type: "string", default: "3" },
    scale: { type: "string", default: "1" },
  },
});
if (!values.b) throw new Error("--b <project tree> is required");
const ALL = ["list", "sorted", "filtered", "collection", "history", "deep", "mint1", "mint16"];
const scenarios = positionals.length ? positionals : ALL;
const seconds = Number(values.seconds);
const rounds = Number(values.rounds);
const spec = Number(values.scale) === 1 ? worlds(1).base : worlds(Number(values.scale)).scaled;
if (Number(values.scale) !== 1) generateScaledWorld(Number(values.scale));

if (scenarios.includes("startup")) {
  const times: Record<"A" | "B", number[]> = { A: [], B: [] };
  const peaks: Record<"A" | "B", number[]> = { A: [], B: [] };
  for (let round = 0; round < rounds; round++) {
    for (const [name, cwd] of [
      ["A", values.a],
      ["B", values.b],
    ] as const) {
      const sim = await startSimulator(inTree(spec, resolve(cwd)));
      times[name].push(sim.startup.firstResponseMs);
      peaks[name].push(sim.startup.peakRssAtReadyMB);
      await stop(sim.child);
    }
  }
  console.log(
    `startup: A ${times.A.map(Math.round).join(", ")} ms; B ${times.B.map(Math.round).join(", ")} ms; B/A ${(median(times.B) / median(times.A)).toFixed(2)}`,
  );
  console.log(
    `peak RSS at first answer: A ${peaks.A.map(Math.round).join(", ")} MB; B ${peaks.B.map(Math.round).join(", ")} MB; B/A ${(median(peaks.B) / median(peaks.A)).toFixed(2)}`,
  );
}

const rest = scenarios.filter((s) => s !== "startup");
if (rest.length) {
  const a = await startSimulator(inTree(spec, resolve(values.a)));
  const b = await startSimulator(inTree(spec, resolve(values.b)));
  const facts = await learnWorld(a.base, a.child);
  for (const scenario of rest) {
    const run = (sim: Started, duration: number) => measure(sim, facts, scenario, duration);
    await run(a, 1);
    await run(b, 1);
    const samples: Record<"A" | "B", Sample[]> = { A: [], B: [] };
    for (let round = 0; round < rounds; round++) {
      samples.A.push(await run(a, seconds));
      samples.B.push(await run(b, seconds));
    }
    const [sa, sb] = [summarize(samples.A), summarize(samples.B)];
    console.log(
      `${scenario.padEnd(10)} A ${Math.round(sa.rps)} req/s (p50 ${sa.p50} p99 ${sa.p99})  B ${Math.round(sb.rps)} req/s (p50 ${sb.p50} p99 ${sb.p99})  B/A ${(sb.rps / sa.rps).toFixed(2)}`,
    );
  }
  await stop(a.child);
  await stop(b.child);
}
await stopAll();

function measure(sim: Started, facts: WorldFacts, scenario: string, duration: number): Promise<Sample> {
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
  if (scenario.startsWith("mint")) {
    return load({
      ...mintRequest(sim.base, facts.mint),
      connections: Number(scenario.slice(4)),
      seconds: duration,
    });
  }
  if (!paths[scenario]) throw new Error(`unknown scenario ${scenario}`);
  return load({ url: sim.base + paths[scenario], connections: 32, seconds: duration });
}
