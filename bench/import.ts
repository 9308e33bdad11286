import { execFileSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { importCollections } from "../src/import/import.ts";
import { PoliteFetcher } from "../src/import/polite-fetch.ts";
import { fixtureWorld } from "../src/scenario/worlds.ts";
import { scenarioChains } from "../src/schemas/scenario.ts";
import { startSimulator } from "../src/simulator/simulator.ts";

// The import's speed (issue 34): a generated world served by a simulator, imported whole at 4 requests in flight; the
// imported world's cold start and its start from the world cache; peak RSS. Beside it, the baseline: the same URLs
// fetched at 4 in flight with nothing else done (the import's cost over reading alone is the ratio).
//   node bench/import.ts --scale 17   (≈ 10,000 items; the size)      node bench/import.ts --scale 1

const { values } = parseArgs({ options: { scale: { type: "string", default: "1" } } });
const dir = mkdtempSync(join(tmpdir(), "bench-import-"));
const file = join(dir, "world.json");
execFileSync(process.execPath, ["src/scenario/generate/cli.ts", "--scale", values.scale!, "--out", file], {
  stdio: "ignore",
});
const seconds = (from: number) => Math.round((performance.now() - from) / 100) / 10;

const live = await startSimulator(fixtureWorld(file), { port: 0, serveRpc: false, cacheDir: undefined });
await live.live;
const addresses: string[] = [];
for (let page = 1; ; page++) {
  const { collections } = (await (await fetch(`${live.url}/api/v2/collection?perPage=100&page=${page}`)).json()) as {
    collections: { address: string }[];
  };
  addresses.push(...collections.map(({ address }) => address));
  if (collections.length < 100) break;
}

let started = performance.now();
const imported = await importCollections({ from: live.url, collections: addresses, cacheDir: join(dir, "cache") });
const importSeconds = seconds(started);
const items = imported.collections.reduce((sum, { items: list }) => sum + list.length, 0);

started = performance.now();
const baseline = new PoliteFetcher({ concurrency: 4 });
await Promise.all(imported.reads.map(({ url }) => baseline.get(url)));
const baselineSeconds = seconds(started);
await live.close();

const out = join(dir, "imported.json");
writeFileSync(out, JSON.stringify(imported.scenario));
const chains = scenarioChains(fixtureWorld(out).scenario).map(({ chainId }) => ({ chainId, rpcPort: 0 }));
const options = { port: 4099, serveRpc: false, chains, cacheDir: join(dir, "world-cache") };
started = performance.now();
const cold = await startSimulator(fixtureWorld(out), options);
await cold.live;
const coldSeconds = seconds(started);
await cold.close();
started = performance.now();
const warm = await startSimulator(fixtureWorld(out), options);
await fetch(`${warm.url}/api/v2/collection`);
const cachedSeconds = seconds(started);
await warm.live;
await warm.close();

console.log(
  JSON.stringify(
    {
      scale: Number(values.scale),
      collections: addresses.length,
      items,
      events: imported.events,
      answers: imported.reads.length,
      importSeconds,
      baselineFetchSeconds: baselineSeconds,
      importOverBaseline: Math.round((importSeconds / baselineSeconds) * 100) / 100,
      coldStartSeconds: coldSeconds,
      fromCacheFirstAnswerSeconds: cachedSeconds,
      peakRssMB: Math.round(process.resourceUsage().maxRSS / 1024),
    },
    null,
    2,
  ),
);
