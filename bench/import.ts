import { execFileSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { importCollections } from "../src/import/import.ts";
import { PoliteFetcher } from "../src/import/polite-fetch.ts";
import { cpuMsOf, sleep, type Child } from "./lib/processes.ts";
import { startSimulator, stop } from "./lib/sim.ts";

// The import's speed (issue 34): a generated world served by a simulator, imported whole at 4 requests in flight; the
// imported world's cold start and its start from the world cache; peak RSS. Beside it, the baseline: the same URLs
// fetched at 4 in flight with nothing else done (the import's cost over reading alone is the ratio).
// The live service is a simulator in a process of its own, and the imported world is started as `npm run simulate`
// starts a world, each start a process of its own: each peak RSS is one process's (the import's, a start's).
//   node bench/import.ts --scale 17   (≈ 10,000 items; the size)      node bench/import.ts --scale 1

const { values } = parseArgs({ options: { scale: { type: "string", default: "1" } } });
// The machine is shared: the load average beside each figure, and each process's CPU time, which the load changes less.
const loadAtStart = loadavg()[0]!;
const dir = mkdtempSync(join(tmpdir(), "bench-import-"));
const file = join(dir, "world.json");
execFileSync(process.execPath, ["src/scenario/generate/cli.ts", "--scale", values.scale!, "--out", file], {
  stdio: "ignore",
});
const seconds = (ms: number) => Math.round(ms / 100) / 10;
// The simulator run from its sources (as `npm run import` runs), without JSON-RPC ports.
const simulate = (world: string, flags: string[]) => ({
  name: world,
  scale: Number(values.scale),
  args: ["src/cli/simulate.ts", "--fixture", world, "--no-rpc", ...flags],
});
const withinMs = 1_800_000;
/** Stops a simulator and answers its peak RSS in MB, read until it exits (it writes the world cache on its way out). */
async function stopAndWeigh(child: Child): Promise<number> {
  let peak = 0;
  const stopped = stop(child);
  // An exited process not yet reaped has no memory figures (NaN): the last read before stands.
  for (let read = child.memory()?.peakMB; child.running; read = child.memory()?.peakMB) {
    if (read !== undefined && !Number.isNaN(read)) peak = Math.max(peak, read);
    await sleep(20);
  }
  await stopped;
  return Math.round(peak);
}

const live = await startSimulator(simulate(file, ["--no-cache"]), [], { withinMs });
const addresses: string[] = [];
for (let page = 1; ; page++) {
  const { collections } = (await (await fetch(`${live.base}/api/v2/collection?perPage=100&page=${page}`)).json()) as {
    collections: { address: string }[];
  };
  addresses.push(...collections.map(({ address }) => address));
  if (collections.length < 100) break;
}

let started = performance.now();
const cpuBefore = process.cpuUsage();
const imported = await importCollections({ from: live.base, collections: addresses, cacheDir: join(dir, "cache") });
const importSeconds = seconds(performance.now() - started);
const importCpu = process.cpuUsage(cpuBefore);
const importCpuSeconds = seconds((importCpu.user + importCpu.system) / 1000);
const items = imported.collections.reduce((sum, { items: list }) => sum + list.length, 0);

started = performance.now();
const baseline = new PoliteFetcher({ concurrency: 4 });
await Promise.all(imported.reads.map(({ url }) => baseline.get(url)));
const baselineSeconds = seconds(performance.now() - started);
await stop(live.child);

const out = join(dir, "imported.json");
writeFileSync(out, JSON.stringify(imported.scenario));
const importPeakRssMB = Math.round(process.resourceUsage().maxRSS / 1024);
const imports = { items, events: imported.events, answers: imported.reads.length };
// The collection uris of a fixed URL, so the second start is the same world (the world cache's key names them).
const worldCache = ["--public-url", "http://127.0.0.1:3000", "--cache", join(dir, "world-cache")];
const cold = await startSimulator(simulate(out, worldCache), [], { withinMs });
const coldCpuSeconds = seconds(cpuMsOf(cold.child.pid));
const coldPeak = await stopAndWeigh(cold.child);
const cached = await startSimulator(simulate(out, worldCache), [], { withinMs });
const cachedPeak = await stopAndWeigh(cached.child);

console.log(
  JSON.stringify(
    {
      scale: Number(values.scale),
      collections: addresses.length,
      ...imports,
      importSeconds,
      baselineFetchSeconds: baselineSeconds,
      importOverBaseline: Math.round((importSeconds / baselineSeconds) * 100) / 100,
      importCpuSeconds,
      importPeakRssMB,
      coldStartSeconds: seconds(cold.startup.readyLineMs),
      coldStartCpuSeconds: coldCpuSeconds,
      coldStartPeakRssMB: coldPeak,
      fromCacheFirstAnswerSeconds: seconds(cached.startup.firstResponseMs),
      fromCacheFromCache: cached.startup.fromCache,
      fromCachePeakRssMB: cachedPeak,
      loadAverage: [loadAtStart, loadavg()[0]!].map((load) => Math.round(load * 10) / 10),
    },
    null,
    2,
  ),
);
