// `npm run bench:journal-memory`: what --state keeps in memory per mint. Two simulators of the default world, one
// without a journal and one with, each under 16 clients minting for --seconds; the resident memory each gained, per
// mint, is compared (the journal's savepoints are node snapshots the chain keeps).
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { load } from "./lib/load.ts";
import { stopAll } from "./lib/processes.ts";
import { startSimulator, stop, type Started } from "./lib/sim.ts";
import { learnWorld, mintRequest, simulateCommand, type WorldSpec } from "./lib/worlds.ts";

const { values } = parseArgs({ options: { seconds: { type: "string", default: "60" } } });
const SECONDS = Number(values.seconds);

const plain: WorldSpec = {
  name: "default world",
  scale: 1,
  args: [...simulateCommand(), "--no-rpc", "--no-cache", "--public-url", "http://bench.test"],
};
const journaled: WorldSpec = {
  ...plain,
  name: "default world, --state",
  args: [...plain.args, "--state", mkdtempSync(join(tmpdir(), "nft-sim-bench-state-"))],
};

async function kept(world: WorldSpec): Promise<{ mints: number; beforeMB: number; afterMB: number }> {
  const sim: Started = await startSimulator(world);
  try {
    const facts = await learnWorld(sim.base, sim.child);
    const mint = (seconds: number) => load({ ...mintRequest(sim.base, facts.mint), connections: 16, seconds });
    await mint(2);
    const beforeMB = sim.child.memory()!.rssMB;
    const { requests } = await mint(SECONDS);
    return { mints: requests, beforeMB, afterMB: sim.child.memory()!.rssMB };
  } finally {
    await stop(sim.child);
  }
}

async function main() {
  for (const world of [plain, journaled]) {
    const { mints, beforeMB, afterMB } = await kept(world);
    const perMint = ((afterMB - beforeMB) * 1024) / mints;
    console.log(
      `${world.name}: ${mints} mints in ${SECONDS} s at 16 clients, RSS ${beforeMB.toFixed(0)} → ${afterMB.toFixed(0)} MB: ` +
        `${perMint.toFixed(1)} KB per mint`,
    );
  }
}

main()
  .catch((error) => {
    console.error(error);
    process.exitCode = 1;
  })
  .finally(() => stopAll());
