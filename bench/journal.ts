// `npm run bench:journal`: what --state costs a write. Two simulators of the default world run side
// by side, one without a journal and one with; mint throughput is measured in alternating rounds
// (the ratio of each adjacent pair, then the median), one at a time and 16 at once. What it costs a
// restart is measured by bench/restart.ts. The disk's sync latency is measured before and after the rounds.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { formatLatency, syncLatency } from "./lib/disk.ts";
import { load, median, type Sample } from "./lib/load.ts";
import { stopAll } from "./lib/processes.ts";
import { startSimulator, stop } from "./lib/sim.ts";
import { learnWorld, mintRequest, simulateCommand, type WorldSpec } from "./lib/worlds.ts";

const { values } = parseArgs({
  options: {
    seconds: { type: "string", default: "3" },
    rounds: { type: "string", default: "5" },
  },
});
const SECONDS = Number(values.seconds);
const ROUNDS = Number(values.rounds);

const stateDir = mkdtempSync(join(tmpdir(), "nft-sim-bench-state-"));
const plain: WorldSpec = {
  name: "default world",
  scale: 1,
  args: [...simulateCommand(), "--no-rpc", "--no-cache", "--public-url", "http://bench.test"],
};
const journaled: WorldSpec = { ...plain, name: "default world, --state", args: [...plain.args, "--state", stateDir] };

async function main() {
  const without = await startSimulator(plain);
  const withState = await startSimulator(journaled);
  const facts = await learnWorld(without.base, without.child);
  const mints = (base: string, connections: number, seconds: number) =>
    load({ ...mintRequest(base, facts.mint), connections, seconds });

  // A mint with --state waits for its block's sync: the disk's own latency, beside the figures, says what they met.
  console.log(`this disk's fdatasync of a 2 KB append before the rounds: ${formatLatency(syncLatency(stateDir))}`);
  for (const connections of [1, 16]) {
    await mints(without.base, connections, 1);
    await mints(withState.base, connections, 1);
    const pairs: { plain: Sample; journaled: Sample }[] = [];
    for (let round = 0; round < ROUNDS; round++)
      pairs.push({
        plain: await mints(without.base, connections, SECONDS),
        journaled: await mints(withState.base, connections, SECONDS),
      });
    const ratio = median(pairs.map((pair) => pair.journaled.rps / pair.plain.rps));
    console.log(
      `mints at concurrency ${connections}: ${median(pairs.map((p) => p.journaled.rps)).toFixed(0)}/s with --state vs ` +
        `${median(pairs.map((p) => p.plain.rps)).toFixed(0)}/s without → ${(ratio * 100).toFixed(0)}% (median of ${ROUNDS} paired rounds)`,
    );
  }
  console.log(`this disk's fdatasync of a 2 KB append after the rounds: ${formatLatency(syncLatency(stateDir))}`);
  await stop(withState.child);
  await stop(without.child);
}

main()
  .catch((error) => {
    console.error(error);
    process.exitCode = 1;
  })
  .finally(() => stopAll());
