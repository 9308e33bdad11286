// `npm run bench:journal`: what --state costs. Two simulators of the default world run side by
// side, one without a journal and one with; mint throughput is measured in alternating rounds
// (the ratio of each adjacent pair, then the median), then the journaled one is restarted on a
// journal of --mints mints and its start-up is compared with a start without a journal.
import { mkdtempSync, readFileSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { JOURNAL_FILE } from "../src/journal/journal.ts";
import { load, median, type Sample } from "./lib/load.ts";
import { stopAll } from "./lib/processes.ts";
import { startSimulator, stop } from "./lib/sim.ts";
import { learnWorld, type WorldSpec } from "./lib/worlds.ts";

const { values } = parseArgs({
  options: {
    seconds: { type: "string", default: "3" },
    rounds: { type: "string", default: "5" },
    mints: { type: "string", default: "1000" },
  },
});
const SECONDS = Number(values.seconds);
const ROUNDS = Number(values.rounds);
const JOURNALED_MINTS = Number(values.mints);

const stateDir = mkdtempSync(join(tmpdir(), "nft-sim-bench-state-"));
const plain: WorldSpec = {
  name: "default world",
  scale: 1,
  args: ["dist/bundle/simulate.js", "--no-rpc", "--no-cache", "--public-url", "http://bench.test"],
};
const journaled: WorldSpec = { ...plain, name: "default world, --state", args: [...plain.args, "--state", stateDir] };

async function main() {
  const without = await startSimulator(plain);
  const withState = await startSimulator(journaled);
  const facts = await learnWorld(without.base, without.child);
  const body = JSON.stringify({
    collectionAddress: facts.mint.collection,
    recipient: facts.mint.wallet,
    chainId: facts.mint.chainId,
    item: { name: "Bench Sword", initialSupply: 5 },
  });
  const mints = (base: string, connections: number, seconds: number) =>
    load({
      url: `${base}/api/v2/item/new?apiKey=${encodeURIComponent(facts.mint.apiKey)}`,
      method: "POST",
      headers: { "content-type": "application/json" },
      body,
      connections,
      seconds,
    });

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
  await stop(withState.child);
  await stop(without.child);

  // A fresh journal of exactly --mints mints, then start-ups with and without it, alternating.
  const thousandDir = mkdtempSync(join(tmpdir(), "nft-sim-bench-state-"));
  const thousand: WorldSpec = {
    ...plain,
    name: `default world, ${JOURNALED_MINTS} journaled mints`,
    args: [...plain.args, "--state", thousandDir],
  };
  const filling = await startSimulator(thousand);
  for (let i = 0; i < JOURNALED_MINTS; i++) {
    const response = await fetch(`${filling.base}/api/v2/item/new?apiKey=${encodeURIComponent(facts.mint.apiKey)}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body,
    });
    if (!response.ok) throw new Error(`mint ${i} answered ${response.status}`);
  }
  await stop(filling.child);
  // What the start-ups replay is what the journal holds, not what was sent: read it back.
  const entries = readFileSync(join(thousandDir, JOURNAL_FILE), "utf8")
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line) as { t: string });
  const journaledCount = entries.filter((entry) => entry.t === "tx").length;
  if (journaledCount !== JOURNALED_MINTS)
    throw new Error(`the journal holds ${journaledCount} transactions, not the ${JOURNALED_MINTS} mints answered`);
  console.log(
    `journal: ${entries.length} entries, ${journaledCount} of them mint transactions (${(statSync(join(thousandDir, JOURNAL_FILE)).size / 1e6).toFixed(2)} MB)`,
  );

  const startups: { plain: number; journaled: number }[] = [];
  for (let round = 0; round < 3; round++) {
    const a = await startSimulator(plain);
    await stop(a.child);
    const b = await startSimulator(thousand);
    await stop(b.child);
    startups.push({ plain: a.startup.firstResponseMs, journaled: b.startup.firstResponseMs });
  }
  const line =
    `start-up to the first 200: ${(median(startups.map((s) => s.journaled)) / 1000).toFixed(1)} s with a journal of ${journaledCount} mints ` +
    `vs ${(median(startups.map((s) => s.plain)) / 1000).toFixed(1)} s without (median of 3, same run)`;
  console.log(line);
}

main()
  .catch((error) => {
    console.error(error);
    process.exitCode = 1;
  })
  .finally(() => stopAll());
