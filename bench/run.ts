// `npm run bench`: reads, mints, start-up, memory and growth of the simulator, each as
// a ratio against a baseline measured in the same run (see bench/README.md).
import { execFileSync } from "node:child_process";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { cpus, loadavg } from "node:os";
import { resolve } from "node:path";
import { parseArgs } from "node:util";
import { load, median, summarize, type Sample } from "./lib/load.ts";
import { ROOT, stopAll } from "./lib/processes.ts";
import { helper, startSimulator, stop, type Started } from "./lib/sim.ts";
import {
  BENCH_CACHE_DIR,
  cacheAheadArgs,
  generateScaledWorld,
  inTree,
  learnWorld,
  mintRequest,
  worlds,
  type WorldFacts,
  type WorldSpec,
} from "./lib/worlds.ts";
import { renderTable } from "./lib/report.ts";
import { prismStartups, readsAgainstPrism, startPrism, type PrismRead } from "./lib/prism.ts";
import { renderSoak, soak, SOAK_TARGETS, type SoakResult } from "./lib/soak.ts";

const { values: opts } = parseArgs({
  options: {
    seconds: { type: "string", default: "2" },
    warmup: { type: "string", default: "1" },
    rounds: { type: "string", default: "5" },
    connections: { type: "string", default: "32" },
    scale: { type: "string", default: "10" },
    "startup-runs": { type: "string", default: "3" },
    out: { type: "string" },
    only: { type: "string" },
    tree: { type: "string" },
    "soak-seconds": { type: "string", default: "600" },
    "soak-clients": { type: "string", default: "8" },
    "heap-snapshots": { type: "string" },
  },
});
const SECONDS = Number(opts.seconds);
const WARMUP = Number(opts.warmup);
const ROUNDS = Number(opts.rounds);
const CONNECTIONS = Number(opts.connections);
const SCALE = Number(opts.scale);
const STARTUP_RUNS = Number(opts["startup-runs"]);
const ALL_PHASES = ["reads", "prism", "mints", "startup", "growth"];
// The soak (10 minutes) and the ×100 world (its cold start alone takes minutes) run apart: only with --only.
const KNOWN_PHASES = [...ALL_PHASES, "soak", "x100"];
const PHASES = new Set(opts.only ? opts.only.split(",") : ALL_PHASES);
for (const phase of PHASES)
  if (!KNOWN_PHASES.includes(phase)) throw new Error(`--only: unknown phase '${phase}' (${KNOWN_PHASES.join(", ")})`);
const SOAK_SECONDS = Number(opts["soak-seconds"]);
const X100 = 100;
/** This round's targets; bench/lib/report.ts marks each met or missed. */
const TARGETS = {
  reads: 0.6,
  mints: 0.85,
  mints16: 0.9,
  /** The first answer of a start from the world cache. */
  startupMs: 500,
  /** The banner of a start from the world cache: the chains hold the world, writes are taken. */
  writesReadyMs: 1000,
  peakRssMB: 200,
  /** A newcomer's first start (after npm install, which caches the default world ahead) ÷ Prism's start. */
  startupVsPrism: 1.0,
  scaledStartupMs: 10_000,
  scaledPeakRssMB: 1024,
  x100: { startupMs: 5000, coldMs: 60_000, peakRssMB: 2048, costGrowth: 1.3 },
  soak: SOAK_TARGETS,
};

const benchStarted = performance.now();
const log = (line: string) =>
  console.log(`[${((performance.now() - benchStarted) / 1000).toFixed(0).padStart(4)} s] ${line}`);

// ---------- reads ----------

interface ReadCase {
  name: string;
  path: string;
}

function readCases(facts: WorldFacts, deepPages: number[]): ReadCase[] {
  const filter = facts.collections[0]!;
  const { collection, tokenId } = facts.hot;
  const top = [...facts.collections].sort((a, b) => b.volume_all - a.volume_all)[0]!;
  return [
    { name: "list, default sort", path: "/api/v2/collection" },
    { name: "list, sortBy=volume_all", path: "/api/v2/collection?sortBy=volume_all" },
    {
      name: "list, filtered",
      path: `/api/v2/collection?chainId=${filter.chainId}&genre=${encodeURIComponent(filter.genre)}`,
    },
    { name: "one collection", path: `/api/v2/collection/${top.address}` },
    { name: `history page 1 (${facts.hot.events} events)`, path: `/api/v2/item/events/${collection}/${tokenId}` },
    ...deepPages.map((page) => ({
      name: `history page ${page} (${facts.hot.events} events)`,
      path: `/api/v2/item/events/${collection}/${tokenId}?page=${page}`,
    })),
  ];
}

interface ReadResult {
  name: string;
  path: string;
  bytes: number;
  simulator: Sample;
  koa: Sample;
  /** The median over rounds of simulator ÷ baseline, each pair measured back to back. */
  ratio: number;
  rounds: { simulator: number[]; koa: number[] };
}

/** Each case: both servers warmed up, then rounds that alternate baseline and simulator. */
async function measureReads(sim: Started, cases: ReadCase[]): Promise<ReadResult[]> {
  const koa = helper("bench/baselines/koa.ts");
  const { port } = await koa.next("listening");
  const bodies: Record<string, string> = {};
  for (const { path } of cases) {
    const response = await fetch(sim.base + path);
    if (!response.ok) throw new Error(`GET ${path}: ${response.status} ${await response.text()}`);
    bodies[path] = await response.text();
  }
  koa.send({ type: "bodies", bodies });
  await koa.next("ready");
  const koaBase = `http://127.0.0.1:${port}`;
  const results: ReadResult[] = [];
  for (const { name, path } of cases) {
    const run = (base: string, seconds: number) => load({ url: base + path, connections: CONNECTIONS, seconds });
    await run(koaBase, WARMUP);
    await run(sim.base, WARMUP);
    const koaSamples: Sample[] = [];
    const simSamples: Sample[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      koaSamples.push(await run(koaBase, SECONDS));
      simSamples.push(await run(sim.base, SECONDS));
    }
    const simulator = summarize(simSamples);
    const baseline = summarize(koaSamples);
    const ratio = pairedRatio(simSamples, koaSamples);
    results.push({
      name,
      path,
      bytes: Buffer.byteLength(bodies[path]!),
      simulator,
      koa: baseline,
      ratio,
      rounds: { simulator: simSamples.map((x) => x.rps), koa: koaSamples.map((x) => x.rps) },
    });
    log(`  ${name}: ${fmt(simulator.rps)} req/s vs bare Koa ${fmt(baseline.rps)} → ${pct(ratio)}`);
  }
  await stop(koa.child);
  return results;
}

// ---------- mints ----------

interface MintResult {
  concurrency: number;
  simulator: Sample;
  viem: Sample;
  ratio: number;
  /** Not the baseline of the target: the same viem call behind a bare Koa route, to show what HTTP alone costs. */
  viemOverKoa: Sample;
  ratioToViemOverKoa: number;
  rounds: { simulator: number[]; viem: number[]; viemOverKoa: number[] };
}

/** Rounds alternate baseline and simulator: the ratio of each adjacent pair, then their median (robust to drift). */
function pairedRatio(simulator: Sample[], baseline: Sample[]): number {
  return median(simulator.map((s, i) => s.rps / baseline[i]!.rps));
}

async function measureMints(sim: Started, facts: WorldFacts): Promise<{ results: MintResult[]; minted: number }> {
  const baseline = helper("bench/baselines/mint-viem.ts", [String(facts.mint.chainId)]);
  const { port: viemPort } = await baseline.next("ready");
  const overKoa = (connections: number, seconds: number) =>
    load({
      url: `http://127.0.0.1:${viemPort}/mint`,
      method: "POST",
      headers: { "content-type": "application/json" },
      body: "{}",
      connections,
      seconds,
    });
  let minted = 0;
  const overHttp = (connections: number, seconds: number) =>
    load({ ...mintRequest(sim.base, facts.mint), connections, seconds }).then(
      (sample) => ((minted += sample.requests), sample),
    );
  const direct = async (concurrency: number, seconds: number): Promise<Sample> => {
    baseline.send({ type: "run", concurrency, seconds });
    return (await baseline.next("result")).sample;
  };
  const results: MintResult[] = [];
  // A mint is slow next to a read: give the JIT a couple of seconds' worth of them first.
  const warmup = Math.max(WARMUP, 2);
  for (const concurrency of [1, 16]) {
    await direct(concurrency, warmup);
    await overHttp(concurrency, warmup);
    await overKoa(concurrency, warmup);
    const viemSamples: Sample[] = [];
    const simSamples: Sample[] = [];
    const koaSamples: Sample[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      viemSamples.push(await direct(concurrency, SECONDS));
      simSamples.push(await overHttp(concurrency, SECONDS));
      koaSamples.push(await overKoa(concurrency, SECONDS));
    }
    const simulator = summarize(simSamples);
    const viem = summarize(viemSamples);
    const viemOverKoa = summarize(koaSamples);
    const ratio = pairedRatio(simSamples, viemSamples);
    const ratioToViemOverKoa = pairedRatio(simSamples, koaSamples);
    const rounds = {
      simulator: simSamples.map((x) => x.rps),
      viem: viemSamples.map((x) => x.rps),
      viemOverKoa: koaSamples.map((x) => x.rps),
    };
    results.push({ concurrency, simulator, viem, ratio, viemOverKoa, ratioToViemOverKoa, rounds });
    log(
      `  concurrency ${concurrency}: ${fmt(simulator.rps)} mints/s vs direct viem ${fmt(viem.rps)} → ${pct(ratio)}` +
        ` (the same viem call behind bare Koa: ${fmt(viemOverKoa.rps)}/s; simulator ${pct(ratioToViemOverKoa)} of it)`,
    );
  }
  await stop(baseline.child);
  return { results, minted };
}

// ---------- the run ----------

function deepPage(events: number, perPage = 24): number {
  return Math.max(2, Math.floor(events / perPage));
}

interface LargerWorld {
  startup: Started["startup"];
  warm?: Started["startup"];
  facts: WorldFacts;
  reads: ReadResult[];
  peakMB: number;
}

/** A larger world: its cold start, its reads (at the depth of 1×'s deep page too), and a start from the cache. */
async function largerWorld(
  world: WorldSpec,
  scale: number,
  samePage: number,
  measure: { reads: boolean; again: boolean },
): Promise<LargerWorld> {
  log(`starting the simulator with the ${world.name}`);
  // The ×100 world's replay takes longer than the 10 minutes a start is otherwise given.
  const within = { withinMs: scale >= 100 ? 45 * 60_000 : 10 * 60_000 };
  const big = await startSimulator(world, [], within);
  log(`  first answer after ${ms(big.startup.firstResponseMs)} (cold)`);
  const facts = await learnWorld(big.base, big.child);
  log(`  ${facts.collections.length} collections; longest history ${facts.hot.events} events`);
  let reads: ReadResult[] = [];
  if (measure.reads) {
    log(`reads at ×${scale}`);
    const bigDeep = deepPage(facts.hot.events);
    // The same depth as at 1×, and the last page of the longest history when it is much deeper.
    reads = await measureReads(big, readCases(facts, bigDeep >= 2 * samePage ? [samePage, bigDeep] : [samePage]));
  }
  const larger: LargerWorld = { startup: big.startup, facts, reads, peakMB: big.child.memory()?.peakMB ?? NaN };
  await stop(big.child);
  if (measure.again) {
    const again = await startSimulator(world, [], within);
    larger.warm = again.startup;
    larger.peakMB = Math.max(larger.peakMB, again.startup.peakRssAtChainsMB);
    log(
      `  from the world cache: first answer after ${ms(again.startup.firstResponseMs)}, chains ready after ${ms(again.startup.readyLineMs)}`,
    );
    await stop(again.child);
  }
  return larger;
}

async function main() {
  const { base: baseWorld0, scaled: scaledWorld0 } = worlds(SCALE);
  const here = (world: WorldSpec) => (opts.tree ? inTree(world, resolve(opts.tree)) : world);
  const baseWorld = here(baseWorld0);
  const scaledWorld = here(scaledWorld0);
  const x100World = here(worlds(X100).scaled);
  // Every world's first start in this run is a cold one (no cached world).
  rmSync(BENCH_CACHE_DIR, { recursive: true, force: true });
  const command = `npm run bench${process.argv.length > 2 ? ` -- ${process.argv.slice(2).join(" ")}` : ""}`;
  log(
    `${command}: ${SECONDS} s per measurement, ${WARMUP} s warm-up, ${ROUNDS} rounds, ${CONNECTIONS} connections; phases ${[...PHASES].join(", ")}`,
  );
  const needScaled = PHASES.has("startup") || PHASES.has("growth");
  if (needScaled) generateScaledWorld(SCALE);
  if (PHASES.has("x100")) generateScaledWorld(X100);

  // 0. The soak, on a simulator of its own (started with a forced-GC hook).
  let soaked: SoakResult | undefined;
  if (PHASES.has("soak")) {
    const settings = {
      seconds: SOAK_SECONDS,
      clients: Number(opts["soak-clients"]),
      mintShare: 0.4,
      windowSeconds: Math.min(30, SOAK_SECONDS / 2),
      heapSnapshotDir: opts["heap-snapshots"] ? resolve(opts["heap-snapshots"]) : undefined,
    };
    log(`soak: ${settings.seconds} s, ${settings.clients} clients, 40% mints`);
    soaked = await soak(baseWorld, settings, log);
    const first = soaked.windows[0]!;
    const last = soaked.windows[soaked.windows.length - 1]!;
    log(
      `  ${soaked.mints} mints in ${soaked.blocks} blocks; kept per mint ${soaked.retainedPerMintKB.rss.toFixed(1)} KB RSS, ${soaked.retainedPerMintKB.heapUsed.toFixed(1)} KB heap; mints per window ${first.mints} → ${last.mints} (${pct(soaked.mintThroughputRatio)}), mint p50 ${first.mintP50.toFixed(0)} → ${last.mintP50.toFixed(0)} ms`,
    );
    if (PHASES.size === 1) {
      mkdirSync(new URL("results/", import.meta.url), { recursive: true });
      const out = resolve(ROOT, opts.out ?? "bench/results/partial.json");
      const machine = { cpus: cpus().length, cpu: cpus()[0]?.model, node: process.version, loadavgAtEnd: loadavg() };
      writeFileSync(
        out,
        JSON.stringify(
          {
            command,
            date: new Date().toISOString(),
            totalSeconds: Math.round((performance.now() - benchStarted) / 1000),
            machine,
            soak: soaked,
          },
          null,
          2,
        ) + "\n",
      );
      log(`done; results in ${out}`);
      console.log(renderSoak(soaked));
      return;
    }
  }

  // 1. The default world: start-up, reads, mints, peak memory.
  log(`starting the simulator with the ${baseWorld.name}`);
  const sim = await startSimulator(baseWorld);
  log(`  first answer after ${ms(sim.startup.firstResponseMs)}`);
  const facts = await learnWorld(sim.base, sim.child);
  const worldSize = (f: WorldFacts) => ({ collections: f.collections.length, hotItemEvents: f.hot.events });
  log(
    `  ${facts.collections.length} collections; longest history ${facts.hot.events} events (${facts.hot.collection} #${facts.hot.tokenId})`,
  );
  let reads: ReadResult[] = [];
  if (PHASES.has("reads") || PHASES.has("growth") || PHASES.has("x100")) {
    log("reads at 1×");
    reads = await measureReads(sim, readCases(facts, [deepPage(facts.hot.events)]));
  }
  const afterReadsPeakMB = sim.child.memory()?.peakMB ?? NaN;
  let prismReads: PrismRead[] = [];
  if (PHASES.has("prism")) {
    log("reads against Prism mocking docs/openapi.json (the static-mock baseline)");
    const prism = await startPrism();
    prismReads = await readsAgainstPrism(sim.base, prism.base, readCases(facts, []), {
      connections: CONNECTIONS,
      seconds: SECONDS,
      warmup: WARMUP,
      rounds: Math.min(ROUNDS, 3),
    });
    for (const r of prismReads)
      log(`  ${r.name}: ${fmt(r.simulator.rps)} req/s vs Prism ${fmt(r.prism.rps)} → ${pct(r.ratio)}`);
    await stop(prism.child);
  }
  let mints: MintResult[] = [];
  let minted = 0;
  if (PHASES.has("mints")) {
    log("mints");
    ({ results: mints, minted } = await measureMints(sim, facts));
  }
  const afterMintsPeakMB = PHASES.has("mints") ? (sim.child.memory()?.peakMB ?? NaN) : undefined;
  await stop(sim.child);

  // The first start was cold (an empty world cache). A newcomer's first start comes after `npm install`, which caches
  // the default world ahead: that step (the tree's own) into an emptied cache, then a start. The next ones find the
  // world cached.
  const coldStartup = sim.startup;
  const warmStartups: Started["startup"][] = [];
  let newcomer: { aheadMs: number | null; startup: Started["startup"] } | undefined;
  if (PHASES.has("startup")) {
    rmSync(BENCH_CACHE_DIR, { recursive: true, force: true });
    const ahead = cacheAheadArgs(baseWorld);
    const aheadStarted = performance.now();
    if (ahead) execFileSync(process.execPath, ahead, { cwd: baseWorld.cwd ?? ROOT, stdio: "pipe" });
    const aheadMs = ahead ? performance.now() - aheadStarted : null;
    const first = await startSimulator(baseWorld);
    newcomer = { aheadMs, startup: first.startup };
    await stop(first.child);
    log(
      `start-up, ${baseWorld.name}, a newcomer's first: ${ahead ? `cached ahead as npm install does in ${ms(aheadMs!)}, then` : "(this tree caches nothing ahead)"} first answer ${ms(first.startup.firstResponseMs)}${first.startup.fromCache ? " from the cache" : ", cold"}, chains ready ${ms(first.startup.readyLineMs)}`,
    );
    for (let run = 0; run < STARTUP_RUNS; run++) {
      const again = await startSimulator(baseWorld);
      warmStartups.push(again.startup);
      await stop(again.child);
    }
    log(
      `start-up, ${baseWorld.name}: cold ${ms(coldStartup.firstResponseMs)}; from the world cache ${warmStartups.map((s) => ms(s.firstResponseMs)).join(", ")} (chains ready ${warmStartups.map((s) => ms(s.readyLineMs)).join(", ")})`,
    );
  }
  // Prism's start-ups are the start-up phase's baseline too: a few seconds.
  const prismStartupRuns = PHASES.has("prism") || PHASES.has("startup") ? await prismStartups(STARTUP_RUNS) : [];
  if (prismStartupRuns.length) log(`start-up, Prism mocking docs/openapi.json: ${prismStartupRuns.map(ms).join(", ")}`);

  // 2. The world ten times larger (and apart, a hundred times): start-up, reads (growth), peak memory.
  const samePage = deepPage(facts.hot.events);
  const scaled = needScaled
    ? await largerWorld(scaledWorld, SCALE, samePage, { reads: PHASES.has("growth"), again: PHASES.has("startup") })
    : undefined;
  const x100 = PHASES.has("x100")
    ? await largerWorld(x100World, X100, samePage, { reads: true, again: true })
    : undefined;

  // The start-up figure is what a user sees on every start after the first: the world cached.
  const baseStartups = warmStartups.length > 0 ? warmStartups : [coldStartup];
  const baseStartupMs = median(baseStartups.map((s) => s.firstResponseMs));
  const writesReadyMs = median(baseStartups.map((s) => s.readyLineMs));
  // A newcomer's first start (after npm install); without the startup phase, the cold start stands for it.
  const firstStartMs = (newcomer?.startup ?? coldStartup).firstResponseMs;
  const results = {
    command,
    date: new Date().toISOString(),
    totalSeconds: Math.round((performance.now() - benchStarted) / 1000),
    machine: { cpus: cpus().length, cpu: cpus()[0]?.model, node: process.version, loadavgAtEnd: loadavg() },
    settings: {
      seconds: SECONDS,
      warmup: WARMUP,
      rounds: ROUNDS,
      connections: CONNECTIONS,
      scale: SCALE,
      phases: [...PHASES],
      tree: opts.tree ?? null,
    },
    targets: TARGETS,
    worlds: {
      base: { ...baseWorld, ...worldSize(facts) },
      scaled: scaled ? { ...scaledWorld, ...worldSize(scaled.facts) } : null,
    },
    reads: PHASES.has("reads") ? reads.map((r) => ({ ...r, pass: r.ratio >= TARGETS.reads })) : [],
    mints: mints.map((m) => ({ ...m, pass: m.ratio >= (m.concurrency === 1 ? TARGETS.mints : TARGETS.mints16) })),
    startup: [
      {
        world: baseWorld.name,
        firstResponseMs: baseStartupMs,
        cold: coldStartup,
        runs: baseStartups,
        pass: baseStartupMs <= TARGETS.startupMs,
        newcomer: newcomer ?? null,
        writesReadyMs,
        writesReadyPass: writesReadyMs <= TARGETS.writesReadyMs,
      },
      ...(scaled
        ? [
            {
              world: scaledWorld.name,
              firstResponseMs: (scaled.warm ?? scaled.startup).firstResponseMs,
              cold: scaled.startup,
              runs: [scaled.warm ?? scaled.startup],
              pass: (scaled.warm ?? scaled.startup).firstResponseMs <= TARGETS.scaledStartupMs,
            },
          ]
        : []),
    ],
    memory: [
      memoryEntry(
        baseWorld.name,
        Math.max(coldStartup.peakRssAtChainsMB, ...baseStartups.map((s) => s.peakRssAtChainsMB)),
        afterReadsPeakMB,
        afterMintsPeakMB,
        minted,
        TARGETS.peakRssMB,
      ),
      ...(scaled
        ? [
            memoryEntry(
              scaledWorld.name,
              Math.max(scaled.startup.peakRssAtChainsMB, scaled.warm?.peakRssAtChainsMB ?? 0),
              scaled.peakMB,
              undefined,
              0,
              TARGETS.scaledPeakRssMB,
            ),
          ]
        : []),
    ],
    growth: scaled && PHASES.has("growth") ? growth(reads, scaled.reads) : [],
    x100: x100
      ? {
          world: { ...x100World, ...worldSize(x100.facts) },
          cold: x100.startup,
          warm: x100.warm!,
          peakRssMB: x100.peakMB,
          growth: growth(reads, x100.reads),
          reads: x100.reads,
        }
      : null,
    prism: prismStartupRuns.length
      ? {
          startup: {
            simulatorMs: baseStartupMs,
            coldMs: coldStartup.firstResponseMs,
            firstStartMs,
            prismMs: median(prismStartupRuns),
            prismRuns: prismStartupRuns,
            ratio: baseStartupMs / median(prismStartupRuns),
            coldRatio: coldStartup.firstResponseMs / median(prismStartupRuns),
            firstStartRatio: firstStartMs / median(prismStartupRuns),
            pass: firstStartMs / median(prismStartupRuns) <= TARGETS.startupVsPrism,
          },
          reads: prismReads,
        }
      : null,
    soak: soaked ?? null,
  };
  // A partial run (--only, --tree) never replaces the published results.
  const partial = PHASES.size < ALL_PHASES.length || opts.tree !== undefined;
  const out = opts.out ?? (partial ? "bench/results/partial.json" : "bench/results/latest.json");
  mkdirSync(new URL("results/", import.meta.url), { recursive: true });
  writeFileSync(resolve(ROOT, out), JSON.stringify(results, null, 2) + "\n");
  if (!partial && opts.out === undefined) updateReadme(renderTable(results));
  log(`done in ${results.totalSeconds} s; results in ${out}`);
  console.log(renderTable(results));
  if (soaked) console.log(`\n${renderSoak(soaked)}`);
}

/** Peak RSS while serving (once the chains hold the world, and after the reads) against the target; after the mints, apart: every mint is a block. */
function memoryEntry(
  world: string,
  atReady: number,
  afterReads: number,
  afterMints: number | undefined,
  minted: number,
  target: number,
) {
  const serving = Math.max(atReady, afterReads);
  return {
    world,
    peakRssAtReadyMB: atReady,
    peakRssAfterReadsMB: afterReads,
    peakRssAfterMintsMB: afterMints ?? null,
    minted,
    targetMB: target,
    pass: serving <= target,
  };
}

/** The same read at 1× and at the larger scale: how the cost of one request grows. */
function growth(small: ReadResult[], large: ReadResult[]) {
  const key = (r: ReadResult) => r.name.replace(/ \(\d+ events\)/, "");
  return large.map((l) => {
    const s =
      small.find((r) => key(r) === key(l)) ??
      small.find(
        (r) => r.name.startsWith("history page") && l.name.startsWith("history page") && r.path.includes("page="),
      )!;
    return {
      name: l.name,
      atBase: { name: s.name, rps: s.simulator.rps, p50: s.simulator.p50, p99: s.simulator.p99, ratio: s.ratio },
      atScale: { rps: l.simulator.rps, p50: l.simulator.p50, p99: l.simulator.p99, ratio: l.ratio },
      // Cost per request relative to bare Koa serving the same bytes, at scale over at 1×.
      costGrowth: s.ratio / l.ratio,
    };
  });
}

function updateReadme(table: string): void {
  const path = `${ROOT}bench/README.md`;
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch {
    return;
  }
  const start = "<!-- results:start -->";
  const end = "<!-- results:end -->";
  const from = text.indexOf(start);
  const to = text.indexOf(end);
  if (from < 0 || to < from) return;
  writeFileSync(path, `${text.slice(0, from + start.length)}\n${table}\n${text.slice(to)}`);
}

const fmt = (n: number) => Math.round(n).toLocaleString("en-US");
const pct = (r: number) => `${(r * 100).toFixed(0)}%`;
const ms = (n: number) => `${(n / 1000).toFixed(2)} s`;

const shutdown = async (code: number) => {
  await stopAll();
  process.exit(code);
};
process.on("SIGINT", () => void shutdown(130));
process.on("SIGTERM", () => void shutdown(143));
main().then(
  () => shutdown(0),
  async (error) => {
    console.error(error);
    await shutdown(1);
  },
);
