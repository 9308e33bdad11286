// The soak phase: a fresh simulator under a steady mixed load for minutes, to see what each
// mint keeps (memory after a forced GC, end against start) and whether throughput holds.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { median, percentile } from "./load.ts";
import { ROOT, sleep } from "./processes.ts";
import { startSimulator, stop, type Started } from "./sim.ts";
import { getJson, learnWorld, type WorldSpec } from "./worlds.ts";

export interface SoakSettings {
  seconds: number;
  clients: number;
  /** Share of requests that are mints; the rest are reads spread over the four read endpoints. */
  mintShare: number;
  /** Length of a window (the first and the last are compared). */
  windowSeconds: number;
  /** Write a heap snapshot at the start and at the end (in this directory). */
  heapSnapshotDir?: string;
}

export interface MemoryProbe {
  gc: boolean;
  rss: number;
  heapTotal: number;
  heapUsed: number;
  external: number;
  arrayBuffers: number;
  snapshot: string | null;
}

export interface SoakWindow {
  fromS: number;
  toS: number;
  mints: number;
  reads: number;
  mintP50: number;
  mintP99: number;
  readP50: number;
  rssMB: number;
}

export interface SoakResult {
  settings: SoakSettings;
  mints: number;
  reads: number;
  /** Blocks the chain made during the soak (mints alone make them here). */
  blocks: number;
  start: MemoryProbe;
  end: MemoryProbe;
  /** (end − start) ÷ mints, after a forced GC at both ends. */
  retainedPerMintKB: { rss: number; heapUsed: number; external: number };
  /** (RSS in the last second − RSS in the first) ÷ mints, as sampled under the load: no GC forced. */
  rssPerMintWithoutGcKB: number;
  windows: SoakWindow[];
  /** Last window ÷ first window. */
  mintThroughputRatio: number;
  requestThroughputRatio: number;
  rssEndMB: number;
  peakRssMB: number;
}

type Kind = "mint" | "list" | "collection" | "history" | "metadata";

interface Done {
  at: number;
  kind: Kind;
  ms: number;
}

const KB = 1024;
const MB = 1024 * 1024;

/** Forces a GC in the simulator (SIGUSR2 to bench/lib/soak-hook.ts) and reads its memory. */
async function probe(sim: Started, file: string): Promise<MemoryProbe> {
  const before = readLines(file).length;
  process.kill(sim.child.pid, "SIGUSR2");
  for (let waited = 0; waited < 120_000; waited += 50) {
    const lines = readLines(file);
    if (lines.length > before) return JSON.parse(lines[lines.length - 1]!) as MemoryProbe;
    await sleep(50);
  }
  throw new Error("the simulator did not answer the memory probe (SIGUSR2) in 2 minutes");
}

function readLines(file: string): string[] {
  try {
    return readFileSync(file, "utf8").split("\n").filter(Boolean);
  } catch {
    return [];
  }
}

export async function soak(world: WorldSpec, settings: SoakSettings, log: (line: string) => void): Promise<SoakResult> {
  const dir = mkdtempSync(join(tmpdir(), "nft-simulator-soak-"));
  const file = join(dir, "memory.jsonl");
  process.env.BENCH_SOAK_OUT = file;
  if (settings.heapSnapshotDir) process.env.BENCH_HEAPSNAPSHOT_DIR = settings.heapSnapshotDir;
  const sim = await startSimulator(world, ["--expose-gc", "--import", `${ROOT}bench/lib/soak-hook.ts`]);
  delete process.env.BENCH_SOAK_OUT;
  delete process.env.BENCH_HEAPSNAPSHOT_DIR;
  try {
    // The API answers before the banner (with the API keys) is printed.
    await sim.child.waitFor(/ready in/, 60_000);
    const facts = await learnWorld(sim.base, sim.child);
    const { collection, chainId, apiKey, wallet } = facts.mint;
    const { slug } = (await getJson<{ collection: { slug: string } }>(`${sim.base}/api/v2/collection/${collection}`))
      .collection;
    const mintUrl = `${sim.base}/api/v2/item/new?apiKey=${encodeURIComponent(apiKey)}`;
    const mintBody = JSON.stringify({
      collectionAddress: collection,
      recipient: wallet,
      chainId,
      item: { name: "Soak Sword", initialSupply: 5 },
    });
    // Reads of fresh items pick among the latest mints (one made before the start).
    const seedMint = await fetch(mintUrl, {
      method: "POST",
      body: mintBody,
      headers: { "content-type": "application/json" },
    });
    if (!seedMint.ok) throw new Error(`soak: the first mint failed: ${seedMint.status} ${await seedMint.text()}`);
    const fresh: number[] = [...((await seedMint.json()) as { tokenIds: number[] }).tokenIds];
    // The block of an item's mint, from its history (the oldest event): blocks made = last − first.
    const mintBlock = async (tokenId: number) =>
      (
        await getJson<{ events: { blockNumber: number }[] }>(
          `${sim.base}/api/v2/item/events/${collection}/${tokenId}?perPage=100`,
        )
      ).events.at(-1)!.blockNumber;
    const firstBlock = await mintBlock(fresh[0]!);
    const pick = () => fresh[Math.floor(Math.random() * fresh.length)]!;
    const reads: Record<Exclude<Kind, "mint">, () => string> = {
      list: () => "/api/v2/collection",
      collection: () => `/api/v2/collection/${collection}`,
      history: () => `/api/v2/item/events/${collection}/${pick()}`,
      metadata: () => `/metadata/${chainId}/${slug}/${pick()}`,
    };
    const readKinds = Object.keys(reads) as Exclude<Kind, "mint">[];

    const start = await probe(sim, file);
    log(
      `  soak: start RSS ${(start.rss / MB).toFixed(0)} MB, heap ${(start.heapUsed / MB).toFixed(0)} MB (after a forced GC)`,
    );
    const began = performance.now();
    const deadline = began + settings.seconds * 1000;
    const done: Done[] = [];
    const rssAt: number[] = [];
    const failures: string[] = [];
    const sampler = setInterval(() => rssAt.push(sim.child.memory()?.rssMB ?? NaN), 1000);
    const client = async () => {
      while (performance.now() < deadline && failures.length === 0) {
        const sent = performance.now();
        const mint = Math.random() < settings.mintShare;
        const kind: Kind = mint ? "mint" : readKinds[Math.floor(Math.random() * readKinds.length)]!;
        const response = await fetch(mint ? mintUrl : sim.base + reads[kind as Exclude<Kind, "mint">](), {
          method: mint ? "POST" : "GET",
          ...(mint ? { body: mintBody, headers: { "content-type": "application/json" } } : {}),
        }).catch((error: Error) => error);
        if (response instanceof Error) {
          failures.push(`${kind}: ${response.message}`);
          break;
        }
        const text = await response.text();
        if (!response.ok) {
          failures.push(`${kind}: ${response.status} ${text.slice(0, 300)}`);
          break;
        }
        const at = performance.now();
        done.push({ at: at - began, kind, ms: at - sent });
        if (mint) {
          const tokenIds = (JSON.parse(text) as { tokenIds: number[] }).tokenIds;
          fresh.push(...tokenIds);
          if (fresh.length > 64) fresh.splice(0, fresh.length - 64);
        }
      }
    };
    await Promise.all(Array.from({ length: settings.clients }, client));
    clearInterval(sampler);
    if (failures.length > 0) throw new Error(`soak: a request failed: ${failures[0]}`);
    const end = await probe(sim, file);
    const mints = done.filter((d) => d.kind === "mint").length;
    const blocks = (await mintBlock(Math.max(...fresh))) - firstBlock;
    const windows = windowsOf(done, settings, rssAt);
    const first = windows[0]!;
    const last = windows[windows.length - 1]!;
    const perMint = (delta: number) => delta / Math.max(1, mints) / KB;
    const sampled = rssAt.filter(Number.isFinite);
    return {
      settings,
      mints,
      reads: done.length - mints,
      blocks,
      start,
      end,
      retainedPerMintKB: {
        rss: perMint(end.rss - start.rss),
        heapUsed: perMint(end.heapUsed - start.heapUsed),
        external: perMint(end.external - start.external),
      },
      rssPerMintWithoutGcKB: perMint((sampled.at(-1)! - sampled[0]!) * MB),
      windows,
      mintThroughputRatio: last.mints / first.mints,
      requestThroughputRatio: (last.mints + last.reads) / (first.mints + first.reads),
      rssEndMB: end.rss / MB,
      peakRssMB: sim.child.memory()?.peakMB ?? NaN,
    };
  } finally {
    await stop(sim.child);
    rmSync(dir, { recursive: true, force: true });
  }
}

function windowsOf(done: Done[], { seconds, windowSeconds }: SoakSettings, rssAt: number[]): SoakWindow[] {
  const windows: SoakWindow[] = [];
  for (let from = 0; from + windowSeconds <= seconds + 1e-9; from += windowSeconds) {
    const inside = done.filter((d) => d.at >= from * 1000 && d.at < (from + windowSeconds) * 1000);
    const mintMs = inside.filter((d) => d.kind === "mint").map((d) => d.ms);
    const readMs = inside.filter((d) => d.kind !== "mint").map((d) => d.ms);
    windows.push({
      fromS: from,
      toS: from + windowSeconds,
      mints: mintMs.length,
      reads: readMs.length,
      mintP50: median(mintMs),
      mintP99: percentile(mintMs, 99),
      readP50: median(readMs),
      rssMB: rssAt[Math.min(rssAt.length - 1, from + windowSeconds - 1)] ?? NaN,
    });
  }
  return windows;
}

/** What the soak is held to: RSS kept per mint under the load (no GC forced), and the last window's mints ÷ the first's. */
export const SOAK_TARGETS = { keptPerMintKB: 5, lastOverFirst: 0.9 };

/** The soak as Markdown lines. */
export function renderSoak(result: SoakResult): string {
  const { settings: s, retainedPerMintKB: kept } = result;
  const unforced = result.rssPerMintWithoutGcKB;
  const lines = [
    `**Soak** (${s.seconds} s, ${s.clients} clients, ${Math.round(s.mintShare * 100)}% mints / ${Math.round((1 - s.mintShare) * 100)}% reads; ${result.mints.toLocaleString("en-US")} mints in ${result.blocks.toLocaleString("en-US")} blocks, ${result.reads.toLocaleString("en-US")} reads; targets: ≤ ${SOAK_TARGETS.keptPerMintKB} KB of RSS kept per mint without a forced GC, last ${s.windowSeconds} s window ≥ ${SOAK_TARGETS.lastOverFirst * 100}% of the first)`,
    "",
    `| kept per mint (RSS, no GC forced) | (RSS after a forced GC) | (V8 heap after a forced GC) | last window ÷ first (mints) | (all requests) | RSS start → end (after GC) | peak RSS |`,
    `|---:|---:|---:|---:|---:|---:|---:|`,
    `| **${unforced.toFixed(1)} KB** ${unforced <= SOAK_TARGETS.keptPerMintKB ? "✅ met" : "❌ missed"} | ${kept.rss.toFixed(1)} KB | ${kept.heapUsed.toFixed(1)} KB | **${(result.mintThroughputRatio * 100).toFixed(0)}%** ${result.mintThroughputRatio >= SOAK_TARGETS.lastOverFirst ? "✅ met" : "❌ missed"} | ${(result.requestThroughputRatio * 100).toFixed(0)}% | ${(result.start.rss / MB).toFixed(0)} → ${result.rssEndMB.toFixed(0)} MB | ${result.peakRssMB.toFixed(0)} MB |`,
    "",
    `| window | mints | reads | mint p50 / p99 | read p50 | RSS at its end |`,
    `|---|---:|---:|---:|---:|---:|`,
    ...result.windows.map(
      (w) =>
        `| ${w.fromS}–${w.toS} s | ${w.mints.toLocaleString("en-US")} | ${w.reads.toLocaleString("en-US")} | ${w.mintP50.toFixed(0)} / ${w.mintP99.toFixed(0)} ms | ${w.readP50.toFixed(1)} ms | ${w.rssMB.toFixed(0)} MB |`,
    ),
  ];
  return lines.join("\n");
}
