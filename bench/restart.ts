// `node bench/restart.ts [--mints 1000,10000,100000] [--rounds 3]` (through `npm run bench:restart`): how long a
// restart with --state takes against the length of its journal. For each length, a state directory
// is filled with that many mints of the default world (16 at once, as a load makes them), the
// simulator stopped, then restarted, in alternating rounds with a state directory whose journal
// is empty (started once: its checkpoint and the world cache are there). Measured from spawning the
// process: its first 200 on the collection list (reads answer; with a checkpoint, before the chains
// replay anything, and before its per-item parts are read), the first 200 on an item's history (those
// parts read), the banner (the chains hold the world and the journal: writes are taken), and peak RSS.
import { mkdtempSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import autocannon from "autocannon";
import { CHECKPOINT_FILE } from "../src/journal/image.ts";
import { JOURNAL_FILE } from "../src/journal/journal.ts";
import { median } from "./lib/load.ts";
import { stopAll } from "./lib/processes.ts";
import { startSimulator, stop, type Started } from "./lib/sim.ts";
import { learnWorld, mintRequest, SIMULATE, type WorldSpec } from "./lib/worlds.ts";

const { values } = parseArgs({
  options: { mints: { type: "string", default: "1000,10000,100000" }, rounds: { type: "string", default: "3" } },
});
const LENGTHS = values.mints.split(",").map(Number);
const ROUNDS = Number(values.rounds);

const stateWorld = (dir: string): WorldSpec => ({
  name: `default world, --state ${dir}`,
  scale: 1,
  args: [...SIMULATE, "--state", dir],
});

/** A state directory holding `mints` journaled mints (16 at once), the simulator stopped. */
async function filled(mints: number): Promise<{ dir: string; fillSeconds: number }> {
  const dir = mkdtempSync(join(tmpdir(), "nft-sim-bench-restart-"));
  const sim = await startSimulator(stateWorld(dir));
  const started = performance.now();
  if (mints > 0) {
    const facts = await learnWorld(sim.base, sim.child);
    const result = await autocannon({
      ...mintRequest(sim.base, facts.mint),
      connections: 16,
      amount: mints,
      timeout: 120,
    });
    if (result.non2xx + result.errors + result.timeouts > 0)
      throw new Error(
        `filling ${mints} mints: ${result.non2xx} non-2xx, ${result.errors} errors, ${result.timeouts} timeouts`,
      );
  }
  const fillSeconds = (performance.now() - started) / 1000;
  await stop(sim.child);
  return { dir, fillSeconds };
}

/** An item's history: answered once the checkpoint's per-item parts are read (the collections answer before). */
let itemPath = "";

async function restart(dir: string): Promise<Started["startup"]> {
  const sim = await startSimulator(stateWorld(dir), [], { probe: itemPath });
  const startup = sim.startup;
  if (!/answering from the journal's checkpoint/.test(sim.child.output))
    console.warn(`  (a start on ${dir} did not answer from its checkpoint)`);
  await stop(sim.child);
  return startup;
}

const mb = (path: string) => (statSync(path).size / 1e6).toFixed(1);
const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

async function main() {
  const empty = await filled(0);
  const once = await startSimulator(stateWorld(empty.dir)); // it writes the world cache; every later start answers from its checkpoint
  itemPath = `/api/v2/item/events/${(await learnWorld(once.base, once.child)).hot.collection}/1`;
  await stop(once.child);
  console.log(
    "| journaled mints | journal | checkpoint | first answer | ÷ empty journal | an item's history | chains ready | ÷ empty journal | peak RSS at first answer / chains ready |",
  );
  console.log("|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
  for (const mints of LENGTHS) {
    const { dir, fillSeconds } = await filled(mints);
    const rounds: { empty: Started["startup"]; full: Started["startup"] }[] = [];
    for (let round = 0; round < ROUNDS; round++)
      rounds.push({ empty: await restart(empty.dir), full: await restart(dir) });
    const med = (pick: (r: (typeof rounds)[number]) => number) => median(rounds.map(pick));
    const first = med((r) => r.full.firstResponseMs);
    const ready = med((r) => r.full.readyLineMs);
    console.log(
      `| ${mints.toLocaleString("en")} (filled in ${fillSeconds.toFixed(0)} s) | ${mb(join(dir, JOURNAL_FILE))} MB | ${mb(join(dir, CHECKPOINT_FILE))} MB | ` +
        `${s(first)} | **${median(rounds.map((r) => r.full.firstResponseMs / r.empty.firstResponseMs)).toFixed(2)}×** | ${s(med((r) => r.full.probeMs!))} | ` +
        `${s(ready)} | ${median(rounds.map((r) => r.full.readyLineMs / r.empty.readyLineMs)).toFixed(2)}× | ` +
        `${med((r) => r.full.peakRssAtReadyMB).toFixed(0)} / ${med((r) => r.full.peakRssAtChainsMB).toFixed(0)} MB |`,
    );
    console.log(
      `|   (empty journal, same rounds) | | | ${s(med((r) => r.empty.firstResponseMs))} | | ${s(med((r) => r.empty.probeMs!))} | ${s(med((r) => r.empty.readyLineMs))} | | ${med((r) => r.empty.peakRssAtReadyMB).toFixed(0)} / ${med((r) => r.empty.peakRssAtChainsMB).toFixed(0)} MB |`,
    );
  }
}

main()
  .catch((error) => {
    console.error(error);
    process.exitCode = 1;
  })
  .finally(() => stopAll());
