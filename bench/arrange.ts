// `node bench/arrange.ts`: what a fragment costs. The same 1,000 timeline entries (every action kind, on 100 items of
// 5 collections), once replayed at start as part of a scenario, once applied to a running world as a fragment
// (POST /_sim/scenario, over HTTP). Both run in this process on in-process chains, in alternating rounds:
// - replayed at start: the start of the scenario with the entries, less the start of the same scenario without them
//   (both measured in the round, the difference is the entries' replay and indexing);
// - applied: the time POST /_sim/scenario takes on a simulator started with the scenario without them (its checks,
//   the savepoint, the transactions, the index, the answer).
import { parseArgs } from "node:util";
import type { Scenario } from "../src/schemas/scenario.ts";
import { parseScenario } from "../src/scenario/load.ts";
import { scenarioWorld } from "../src/scenario/replay.ts";
import { startSimulator, type Simulator } from "../src/simulator/simulator.ts";
import { median } from "./lib/load.ts";

const { values } = parseArgs({ options: { rounds: { type: "string", default: "5" } } });
const ROUNDS = Number(values.rounds);

const HOLDERS = ["alice", "bob", "carol", "dave"];
const ITEMS = 100;
const COLLECTIONS = 5;

/** The world both start from: accounts and an API key, one chain, nothing on it. */
const base: Scenario = {
  chains: [56],
  accounts: ["studio", ...HOLDERS].map((name) => ({ name })),
  apiKeys: [{ key: "bench-studio-key", account: "studio" }],
  collections: [],
  items: [],
  timeline: [],
} as unknown as Scenario;

type Entry = Record<string, unknown> & { action: string };

/** 1,000 entries: each item added, then nine steps of a story per item (mint, transfer, list, price, add, remove, buy, burn, delist), step by step across the items. */
function entries(): { collections: Record<string, unknown>[]; items: Record<string, unknown>[]; timeline: Entry[] } {
  const collections = Array.from({ length: COLLECTIONS }, (_, c) => ({
    id: `shelf-${c}`,
    chainId: 56,
    name: `Bench Shelf ${c}`,
    owner: "studio",
  }));
  const items = Array.from({ length: ITEMS }, (_, i) => ({
    id: `item-${i}`,
    collection: `shelf-${i % COLLECTIONS}`,
    name: `Bench Item ${i}`,
    initialSupply: 20,
    maximumSupply: 1000,
  }));
  const who = (i: number, shift: number) => HOLDERS[(i + shift) % HOLDERS.length]!;
  const story: ((i: number) => Entry)[] = [
    (i) => ({ action: "mint", item: `item-${i}`, by: "studio", to: who(i, 0), amount: 5 }),
    (i) => ({ action: "transfer", item: `item-${i}`, from: who(i, 0), to: who(i, 1), amount: 3 }),
    (i) => ({
      action: "list",
      listing: `sale-${i}`,
      item: `item-${i}`,
      seller: who(i, 0),
      amount: 4,
      price: "1",
      currency: i % 2 ? "stablecoin" : "native",
    }),
    (i) => ({ action: "updatePrice", listing: `sale-${i}`, price: "0.5" }),
    (i) => ({ action: "addToListing", listing: `sale-${i}`, amount: 1 }),
    (i) => ({ action: "removeFromListing", listing: `sale-${i}`, amount: 1 }),
    (i) => ({ action: "buy", listing: `sale-${i}`, buyer: who(i, 2), amount: 2 }),
    (i) => ({ action: "burn", item: `item-${i}`, from: who(i, 1), amount: 1 }),
    (i) => ({ action: "delist", listing: `sale-${i}` }),
  ];
  const timeline: Entry[] = [
    ...items.map((item, i) => ({ action: "addItem", item: item.id, by: "studio", to: who(i, 0) })),
    ...story.flatMap((step) => Array.from({ length: ITEMS }, (_, i) => step(i))),
  ];
  return { collections, items, timeline };
}

const { collections, items, timeline } = entries();
if (timeline.length !== 1000) throw new Error(`${timeline.length} entries, not 1,000`);

/** The scenario with the entries, a minute apart, ending a minute before now. */
const withEntries = {
  ...base,
  collections: collections.map((collection) => ({ ...collection, createdAt: `-${timeline.length + 1}m` })),
  items,
  timeline: timeline.map((entry, j) => ({ at: `-${timeline.length - j}m`, ...entry })),
};
/** The fragment: the same entries a minute apart, from now on. */
const fragment = {
  collections,
  items,
  timeline: timeline.map((entry, j) => ({ at: j === 0 ? "now" : `+${j}m`, ...entry })),
};

async function timedStart(scenario: unknown): Promise<{ sim: Simulator; ms: number }> {
  const started = performance.now();
  const sim = await startSimulator(scenarioWorld(parseScenario(scenario)), { port: 0, serveRpc: false });
  return { sim, ms: performance.now() - started };
}

async function main() {
  // Hardhat and the modules load once per process: the first start pays for it, so it is not measured.
  await (await timedStart(base)).sim.close();
  const rounds: { replayed: number; applied: number }[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const plain = await timedStart(base);
    await plain.sim.close();
    const full = await timedStart(withEntries);
    await full.sim.close();
    const target = (await timedStart(base)).sim;
    const started = performance.now();
    const response = await fetch(`${target.url}/_sim/scenario`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(fragment),
    });
    const answer = (await response.json()) as { timeline?: unknown[]; errors?: string[] };
    const applied = performance.now() - started;
    await target.close();
    if (response.status !== 200 || answer.timeline?.length !== timeline.length)
      throw new Error(`the fragment answered ${response.status}: ${JSON.stringify(answer).slice(0, 500)}`);
    rounds.push({ replayed: full.ms - plain.ms, applied });
    console.log(
      `round ${round + 1}: replayed at start ${(full.ms - plain.ms).toFixed(0)} ms (start ${full.ms.toFixed(0)} ms with the entries, ${plain.ms.toFixed(0)} ms without); applied as a fragment ${applied.toFixed(0)} ms`,
    );
  }
  const replayed = median(rounds.map((r) => r.replayed));
  const applied = median(rounds.map((r) => r.applied));
  const ratio = median(rounds.map((r) => r.applied / r.replayed));
  console.log(
    `${timeline.length} entries (${COLLECTIONS} collections, ${ITEMS} items; ${JSON.stringify(fragment).length.toLocaleString("en")} bytes as a fragment): ` +
      `applied ${applied.toFixed(0)} ms (${(applied / timeline.length).toFixed(2)} ms an entry), replayed at start ${replayed.toFixed(0)} ms ` +
      `(${(replayed / timeline.length).toFixed(2)} ms an entry); applied ÷ replayed ${ratio.toFixed(2)} (median of ${ROUNDS} rounds)`,
  );
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
