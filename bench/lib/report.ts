// Markdown summary of bench/results/latest.json: ratios first, then the raw figures.

interface Figures {
  rps: number;
  p50: number;
  p99: number;
}

interface WorldSize {
  name: string;
  collections: number;
  hotItemEvents: number;
}

export interface Results {
  command: string;
  date: string;
  totalSeconds: number;
  machine: { cpus: number; cpu?: string; node: string };
  settings: { seconds: number; warmup: number; rounds: number; connections: number; scale: number };
  targets: {
    reads: number;
    mints: number;
    mints16?: number;
    startupMs: number;
    writesReadyMs?: number;
    peakRssMB: number;
    startupVsPrism?: number;
    scaledStartupMs?: number;
    scaledPeakRssMB?: number;
    x100?: { startupMs: number; coldMs: number; peakRssMB: number; costGrowth: number };
    soak?: { keptPerMintKB: number; lastOverFirst: number };
  };
  worlds: { base: WorldSize; scaled: WorldSize | null };
  reads: { name: string; bytes: number; simulator: Figures; koa: Figures; ratio: number; pass: boolean }[];
  mints: {
    concurrency: number;
    simulator: Figures;
    viem: Figures;
    ratio: number;
    pass: boolean;
    viemOverKoa: Figures;
    ratioToViemOverKoa: number;
  }[];
  startup: {
    world: string;
    firstResponseMs: number;
    cold?: StartupRun;
    runs: StartupRun[];
    pass?: boolean;
    newcomer?: { aheadMs: number | null; startup: StartupRun } | null;
    writesReadyMs?: number;
  }[];
  memory: {
    world: string;
    peakRssAtReadyMB: number;
    peakRssAfterReadsMB: number;
    peakRssAfterMintsMB: number | null;
    minted: number;
    targetMB?: number;
    pass: boolean;
  }[];
  growth: Growth[];
  x100?: {
    world: WorldSize;
    cold: StartupRun;
    warm: StartupRun;
    peakRssMB: number;
    growth: Growth[];
  } | null;
  soak?: { rssPerMintWithoutGcKB: number; mintThroughputRatio: number; settings: { seconds: number } } | null;
  prism?: {
    startup: {
      simulatorMs: number;
      coldMs?: number;
      firstStartMs?: number;
      firstStartRatio?: number;
      prismMs: number;
      prismRuns: number[];
      ratio: number;
      coldRatio?: number;
      pass: boolean;
    };
    reads: { name: string; simulator: Figures; prism: Figures; ratio: number }[];
  } | null;
}

interface Growth {
  name: string;
  atBase: Figures & { ratio: number; name: string };
  atScale: Figures & { ratio: number };
  costGrowth: number;
}

interface StartupRun {
  firstResponseMs: number;
  listeningMs: number;
  readyLineMs: number;
  fromCache?: boolean;
}

const pct = (r: number) => `${(r * 100).toFixed(0)}%`;
const num = (n: number) => Math.round(n).toLocaleString("en-US");
const sec = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
const mark = (pass: boolean | undefined) => (pass === undefined ? "" : pass ? "✅" : "❌");
const lat = (f: Figures) => `${f.p50} / ${f.p99} ms`;

/** Each target of the round the run measured: the figure, the target, met or missed. */
export function renderTargets(r: Results): string {
  const t = r.targets;
  const rows: [string, string, string, boolean][] = [];
  const row = (figure: string, measured: string, target: string, met: boolean) =>
    rows.push([figure, measured, target, met]);
  const base = r.startup[0];
  if (r.prism?.startup.firstStartRatio !== undefined && t.startupVsPrism !== undefined) {
    const { firstStartMs, prismMs, firstStartRatio } = r.prism.startup;
    const how = base?.newcomer?.startup.fromCache ? "from the world cached at `npm install`" : "cold";
    row(
      `a newcomer's first start of the default world (${how}) ÷ Prism's, same run`,
      `${sec(firstStartMs!)} ÷ ${sec(prismMs)} = ${firstStartRatio.toFixed(2)}×`,
      `≤ ${t.startupVsPrism.toFixed(1)}×`,
      firstStartRatio <= t.startupVsPrism,
    );
  }
  if (base && base.runs.some((run) => run.fromCache)) {
    row(
      "first answer from the world cache",
      sec(base.firstResponseMs),
      `≤ ${sec(t.startupMs)}`,
      base.firstResponseMs <= t.startupMs,
    );
    if (base.writesReadyMs !== undefined && t.writesReadyMs !== undefined)
      row(
        "writes ready (the chains hold the cached world: the banner)",
        sec(base.writesReadyMs),
        `≤ ${sec(t.writesReadyMs)}`,
        base.writesReadyMs <= t.writesReadyMs,
      );
  }
  if (r.reads.length) {
    const lowest = r.reads.reduce((a, b) => (b.ratio < a.ratio ? b : a));
    row(
      "reads ÷ bare Koa, the lowest endpoint",
      `${pct(lowest.ratio)} (${lowest.name})`,
      `≥ ${pct(t.reads)} on every endpoint`,
      lowest.ratio >= t.reads,
    );
  }
  for (const m of r.mints)
    row(
      `mints ÷ direct viem, concurrency ${m.concurrency}`,
      pct(m.ratio),
      `≥ ${pct(m.concurrency === 1 ? t.mints : (t.mints16 ?? t.mints))}`,
      m.pass,
    );
  const memory = r.memory[0];
  if (memory) {
    const serving = Math.max(memory.peakRssAtReadyMB, memory.peakRssAfterReadsMB);
    row("peak RSS serving the default world", `${num(serving)} MB`, `≤ ${num(t.peakRssMB)} MB`, serving <= t.peakRssMB);
  }
  const scaled = r.startup[1];
  if (scaled && r.memory[1] && t.scaledStartupMs !== undefined && t.scaledPeakRssMB !== undefined) {
    const peak = Math.max(r.memory[1].peakRssAtReadyMB, r.memory[1].peakRssAfterReadsMB);
    row(
      `×${r.settings.scale} world from the cache (kept)`,
      sec(scaled.firstResponseMs),
      `≤ ${sec(t.scaledStartupMs)}`,
      scaled.firstResponseMs <= t.scaledStartupMs,
    );
    row(
      `×${r.settings.scale} world, peak RSS (kept)`,
      `${num(peak)} MB`,
      `≤ ${num(t.scaledPeakRssMB)} MB`,
      peak <= t.scaledPeakRssMB,
    );
  }
  if (r.x100 && t.x100) {
    const x = r.x100;
    const n = `×100 world (${num(x.world.collections)} collections)`;
    row(
      `${n} from the cache`,
      sec(x.warm.firstResponseMs),
      `≤ ${sec(t.x100.startupMs)}`,
      x.warm.firstResponseMs <= t.x100.startupMs,
    );
    row(`${n} cold`, sec(x.cold.firstResponseMs), `≤ ${sec(t.x100.coldMs)}`, x.cold.firstResponseMs <= t.x100.coldMs);
    row(`${n}, peak RSS`, `${num(x.peakRssMB)} MB`, `≤ ${num(t.x100.peakRssMB)} MB`, x.peakRssMB <= t.x100.peakRssMB);
    const worst = x.growth.reduce((a, b) => (b.costGrowth > a.costGrowth ? b : a));
    row(
      `${n}, reads' cost growth, the highest`,
      `${worst.costGrowth.toFixed(2)}× (${worst.name})`,
      `≤ ${t.x100.costGrowth}×`,
      worst.costGrowth <= t.x100.costGrowth,
    );
  }
  if (r.soak && t.soak) {
    const kept = r.soak.rssPerMintWithoutGcKB;
    const held = r.soak.mintThroughputRatio;
    const n = `soak (${Math.round(r.soak.settings.seconds / 60)} min)`;
    row(
      `${n}: RSS kept per mint, no GC forced`,
      `${kept.toFixed(1)} KB`,
      `≤ ${t.soak.keptPerMintKB} KB`,
      kept <= t.soak.keptPerMintKB,
    );
    row(
      `${n}: mints in the last window ÷ the first`,
      pct(held),
      `≥ ${pct(t.soak.lastOverFirst)}`,
      held >= t.soak.lastOverFirst,
    );
  }
  return [
    "| figure | measured | target | |",
    "|---|---:|---:|---|",
    ...rows.map(
      ([figure, measured, target, met]) => `| ${figure} | ${measured} | ${target} | ${met ? "✅ met" : "❌ missed"} |`,
    ),
  ].join("\n");
}

export function renderTable(r: Results): string {
  const { base, scaled } = r.worlds;
  const lines = [
    `Produced by \`${r.command}\` on ${r.date.slice(0, 16).replace("T", " ")} UTC (${r.machine.cpus} × ${r.machine.cpu ?? "CPU"}, Node ${r.machine.node}); ` +
      `the whole run took ${Math.floor(r.totalSeconds / 60)} min ${r.totalSeconds % 60} s. ` +
      `${r.settings.seconds} s per measurement after ${r.settings.warmup} s of warm-up, ${r.settings.rounds} alternating rounds (ratio: the median of the rounds' ratios; req/s and latencies: medians). ` +
      `Default world: ${base.collections} collections, longest item history ${num(base.hotItemEvents)} events` +
      (scaled
        ? `; ×${r.settings.scale} world: ${scaled.collections} collections, longest item history ${num(scaled.hotItemEvents)} events.`
        : "."),
  ];
  lines.push("", "**This round's targets**", "", renderTargets(r));
  if (r.reads.length) {
    lines.push(
      "",
      `**Reads** (${r.settings.connections} connections; target ≥ ${pct(r.targets.reads)} of bare Koa answering the same bytes)`,
      "",
      "| endpoint | ratio | simulator req/s | bare Koa req/s | simulator p50 / p99 | Koa p50 / p99 | body |",
      "|---|---:|---:|---:|---:|---:|---:|",
      ...r.reads.map(
        (x) =>
          `| ${x.name} | **${pct(x.ratio)}** ${mark(x.pass)} | ${num(x.simulator.rps)} | ${num(x.koa.rps)} | ${lat(x.simulator)} | ${lat(x.koa)} | ${num(x.bytes)} B |`,
      ),
    );
  }
  if (r.mints.length) {
    lines.push(
      "",
      `**Mints** (POST /api/v2/item/new; target ≥ ${pct(r.targets.mints)} one at a time, ≥ ${pct(r.targets.mints16 ?? r.targets.mints)} at 16, of Collection.addItem sent directly with viem to an in-process Hardhat network)`,
      "",
      "| concurrency | ratio | simulator mints/s | direct viem mints/s | simulator p50 / p99 | viem p50 / p99 | viem behind bare Koa: mints/s (simulator's ratio to it) |",
      "|---:|---:|---:|---:|---:|---:|---:|",
      ...r.mints.map(
        (x) =>
          `| ${x.concurrency} | **${pct(x.ratio)}** ${mark(x.pass)} | ${x.simulator.rps.toFixed(1)} | ${x.viem.rps.toFixed(1)} | ${x.simulator.p50} / ${x.simulator.p99} ms | ${x.viem.p50.toFixed(1)} / ${x.viem.p99.toFixed(1)} ms | ${x.viemOverKoa.rps.toFixed(1)} (${pct(x.ratioToViemOverKoa)}) |`,
      ),
    );
  }
  const scaledTarget = r.targets.scaledStartupMs
    ? `; the ×${r.settings.scale} world ≤ ${sec(r.targets.scaledStartupMs)} and ≤ ${num(r.targets.scaledPeakRssMB ?? 0)} MB`
    : "";
  lines.push(
    "",
    `**Start-up and memory** (targets: default world ≤ ${sec(r.targets.startupMs)} from process start to the first complete answer, peak RSS ≤ ${r.targets.peakRssMB} MB${scaledTarget}, judged on the higher of the peaks once the chains hold the world and after the reads). ` +
      'The first start of a world is cold: it replays the world onto the chains before it answers. Every later start finds the world in the world cache and answers from it at once, while the chains replay it ("chains ready": the banner, writes from then on).',
    "",
    "| world | first answer, from the cache | chains ready | first answer, cold (first start) | port open (cold) | peak RSS once the chains hold the world | peak RSS after the reads | peak RSS after the mints |",
    "|---|---:|---:|---:|---:|---:|---:|---:|",
    ...r.startup.map((s, i) => {
      const m = r.memory[i]!;
      const runs = s.runs.length > 1 ? ` (runs: ${s.runs.map((x) => sec(x.firstResponseMs)).join(", ")})` : "";
      const cold = s.cold ?? s.runs[0]!;
      const chains = s.runs.map((x) => sec(x.readyLineMs)).join(", ");
      const afterMints =
        m.peakRssAfterMintsMB === null ? "–" : `${num(m.peakRssAfterMintsMB)} MB (${num(m.minted)} mints)`;
      return `| ${s.world} | **${sec(s.firstResponseMs)}** ${mark(s.pass)}${runs} | ${chains} | ${sec(cold.firstResponseMs)} | ${sec(cold.listeningMs)} | **${num(m.peakRssAtReadyMB)} MB** ${mark(Math.max(m.peakRssAtReadyMB, m.peakRssAfterReadsMB) <= (m.targetMB ?? r.targets.peakRssMB))} | ${num(m.peakRssAfterReadsMB)} MB | ${afterMints} |`;
    }),
  );
  if (r.prism) {
    const { startup, reads } = r.prism;
    lines.push(
      "",
      `**Against a static mock** (Prism 5, \`prism mock docs/openapi.json\`, started and loaded in the same run; start-up target: a newcomer's first start within ${r.targets.startupVsPrism ?? 1.5}× of Prism's)`,
      "",
      "| | simulator | Prism | simulator ÷ Prism |",
      "|---|---:|---:|---:|",
      ...(startup.firstStartMs !== undefined
        ? [
            `| start-up to the first 200, a newcomer's first start (${r.startup[0]?.newcomer?.startup.fromCache ? "from the world cached at \`npm install\`" : "cold: nothing cached ahead"}) | ${sec(startup.firstStartMs)} | ${sec(startup.prismMs)} | **${startup.firstStartRatio!.toFixed(2)}×** ${mark(startup.pass)} |`,
          ]
        : []),
      `| start-up to the first 200 (median of ${startup.prismRuns.length}; the simulator's world cached) | ${sec(startup.simulatorMs)} | ${sec(startup.prismMs)} | ${startup.ratio.toFixed(2)}× |`,
      ...(startup.coldMs !== undefined
        ? [
            `| start-up to the first 200, a world not cached yet (cold) | ${sec(startup.coldMs)} | ${sec(startup.prismMs)} | ${startup.coldRatio!.toFixed(2)}× |`,
          ]
        : []),
      ...reads.map(
        (x) =>
          `| ${x.name}: req/s (p50 / p99) | ${num(x.simulator.rps)} (${lat(x.simulator)}) | ${num(x.prism.rps)} (${lat(x.prism)}) | **${pct(x.ratio)}** |`,
      ),
    );
  }
  if (r.growth.length) {
    lines.push(
      "",
      `**Growth** (the same request at 1× and ×${r.settings.scale}; cost growth = (simulator/Koa ratio at 1×) ÷ (ratio at ×${r.settings.scale}); 1.00 = flat, ${r.settings.scale} = linear in the world)`,
      "",
      `| request | cost growth | req/s 1× → ×${r.settings.scale} | p50 / p99 at 1× | p50 / p99 at ×${r.settings.scale} |`,
      "|---|---:|---:|---:|---:|",
      ...r.growth.map(
        (g) =>
          `| ${g.name}${g.atBase.name !== g.name ? ` (1×: ${g.atBase.name})` : ""} | **${g.costGrowth.toFixed(2)}×** | ${num(g.atBase.rps)} → ${num(g.atScale.rps)} | ${lat(g.atBase)} | ${lat(g.atScale)} |`,
      ),
    );
  }
  return lines.join("\n");
}
