import { writeFileSync } from "node:fs";
import cliProgress from "cli-progress";
import { importCollections, DEFAULT_MINT_KEY, type Imported } from "../import/import.ts";
import { isStartError } from "../core/errors.ts";
import { fidelityReport, reportLines, type FidelityReport } from "../import/report.ts";
import { scenarioChains } from "../schemas/scenario.ts";
import type { CollectionsResponse } from "../schemas/collection.ts";
import { fixtureWorld } from "../scenario/worlds.ts";
import { startSimulator, type Simulator } from "../simulator/simulator.ts";
import { commandLine, runAsScript, integerOption, texts, switches, HELP } from "./command-line.ts";

export const USAGE = `Usage: npm run import -- --from <base-url> --collection <address> [--collection …] [options]

Reads live collections through the API's read endpoints (and each item's metadata at <uri>/<tokenId>), writes them
as a world in the scenario format, replays it on a local simulator and reports, for every URL read, the live answer
against the local one.

  --from <url>            the live service's base URL
  --collection <address>  a collection to import (repeat for more)
  --out <file>            the world written (default imported-world.json); serve it with --fixture <file>
  --report <file>         the fidelity report as JSON
  --chain-id <id>         the chain the collections must be on
  --api-key <key>         an API key for reads (env IMPORT_API_KEY), sent as the ALTURA_API_KEY header; written nowhere
  --concurrency <n>       requests in flight (default 4)
  --tries <n>             tries per URL on 429, 5xx or a dropped connection, Retry-After honoured (default 8)
  --miss-run <n>          token ids without history in a row that end an item scan (default 10)
  --mint-key <key>        the local API key that may mint more into the imported collections (default ${DEFAULT_MINT_KEY})
  --now <date-time>       the imported world's now, volumes measured against it (default the wall clock)
  --cache-dir <dir>       answers kept by URL, so a rerun fetches nothing again (default .nft-sim/import-cache)
  --no-report             write the world only

Exit codes: 0 the world answers as the live service (only the report's listed fields differ), 1 a difference or a
collection not found, 2 a usage error or an upstream that is not this API or cannot be read.`;

/** The flags of `npm run import`. */
export const IMPORT_FLAGS = {
  ...texts("from report chain-id api-key mint-key now"),
  collection: { type: "string", multiple: true },
  out: { type: "string", default: "imported-world.json" },
  concurrency: { type: "string", default: "4" },
  tries: { type: "string", default: "8" },
  "miss-run": { type: "string", default: "10" },
  "cache-dir": { type: "string", default: ".nft-sim/import-cache" },
  ...switches("no-report"),
  ...HELP,
} as const;

export async function importCommand(argv: string[], usage = USAGE): Promise<number> {
  const line = commandLine({ args: argv, options: IMPORT_FLAGS }, usage, undefined, "import: ");
  if (typeof line === "number") return line;
  const { values } = line;
  if (!values.from || !values.collection?.length)
    return (console.error(`import: --from and at least one --collection are needed\n\n${usage}`), 2);
  const now = values.now === undefined ? undefined : new Date(values.now);
  if (now && Number.isNaN(now.getTime())) return (console.error(`import: --now '${values.now}' is not a date-time`), 2);
  let numbers;
  try {
    numbers = {
      concurrency: integerOption("--concurrency", values.concurrency, 1),
      missRun: integerOption("--miss-run", values["miss-run"], 1),
      tries: integerOption("--tries", values.tries, 1),
      ...(values["chain-id"] ? { chainId: integerOption("--chain-id", values["chain-id"], 1) } : {}),
    };
  } catch (error) {
    return (console.error(`import: ${(error as Error).message}`), 2);
  }
  let imported: Imported;
  const apiKey = values["api-key"] ?? process.env.IMPORT_API_KEY;
  const progress = answersProgress();
  try {
    imported = await importCollections({
      from: values.from,
      collections: values.collection,
      ...numbers,
      cacheDir: values["cache-dir"],
      onAnswer: progress.tick,
      ...(apiKey ? { apiKey } : {}),
      ...(values["mint-key"] ? { mintKey: values["mint-key"] } : {}),
      ...(now ? { now } : {}),
    });
  } catch (error) {
    progress.stop();
    if (isStartError(error)) return (console.error(`import: ${error.message}`), error.descriptor.exitCode);
    throw error;
  }
  progress.stop();
  writeFileSync(values.out, `${JSON.stringify(imported.scenario, null, 2)}\n`);
  console.log(
    `Wrote ${values.out}: ${imported.collections.length} collections, ${imported.collections.reduce((n, c) => n + c.items.length, 0)} items, ` +
      `${imported.events} events (${imported.counts.fetched} answers fetched, ${imported.counts.fromCache} from the cache)`,
  );
  for (const skipped of imported.skipped) console.log(`  not replayed: ${skipped}`);
  for (const { chainId, address, transfers, others } of imported.marketplaces)
    console.log(
      `  the marketplace on chain ${chainId} at ${address}, the escrow of ${transfers} live transfers` +
        (others.length === 0
          ? ""
          : `; the other escrows' events keep it as their from or to (listed): ` +
            others.map((other) => `${other.address} (${other.transfers})`).join(", ")),
    );
  for (const [what, given] of Object.entries(imported.defaults)) console.log(`  default for ${what}: ${given}`);
  if (values["no-report"]) return 0;
  const report = await replayAndCompare(values.out, values.from, imported);
  for (const line of reportLines(report)) console.log(line);
  if (values.report) writeFileSync(values.report, `${JSON.stringify(report, null, 2)}\n`);
  return report.faithful ? 0 : 1;
}

/**
 * Serves the world written on a local simulator and compares every URL the import read with its local answer: the
 * same URL on the simulator (each collection is at its live address), but for the collection's metadata uri.
 */
export async function replayAndCompare(file: string, from: string, imported: Imported): Promise<FidelityReport> {
  const world = fixtureWorld(file);
  const chains = scenarioChains(world.scenario).map(({ chainId }) => ({ chainId, rpcPort: 0 }));
  const sim: Simulator = await startSimulator(world, { port: 0, serveRpc: false, chains });
  try {
    const base = from.replace(/\/+$/, "");
    const list = (await (await fetch(`${sim.url}/api/v2/collection?perPage=100`)).json()) as CollectionsResponse;
    const rewrites: [string, string][] = [[base, sim.url]];
    for (const { collection } of imported.collections) {
      const local = list.collections.find((c) => c.chainId === collection.chainId && c.slug === collection.slug);
      if (!local) continue;
      rewrites.unshift([collection.uri.replace(/\/+$/, ""), local.uri.replace(/\/+$/, "")]);
    }
    const localUrl = (url: string) => {
      let rewritten = url;
      for (const [live, local] of rewrites) rewritten = rewritten.split(live).join(local);
      return rewritten;
    };
    return await fidelityReport(imported.reads, base, sim.url, localUrl, imported.added);
  } finally {
    await sim.close();
  }
}

/** A bar of answers settled on a terminal; nothing otherwise. */
function answersProgress(stream: NodeJS.WriteStream = process.stderr) {
  if (!stream.isTTY) return { tick: () => {}, stop: () => {} };
  const bar = new cliProgress.SingleBar(
    { stream, format: "  reading {value} answers ({cached} from the cache)", hideCursor: true },
    cliProgress.Presets.shades_classic,
  );
  let cached = 0;
  bar.start(0, 0, { cached });
  return {
    tick: (_answer: unknown, fromCache: boolean) => {
      if (fromCache) cached++;
      bar.increment(1, { cached });
    },
    stop: () => bar.stop(),
  };
}

await runAsScript(import.meta.url, importCommand);
