import { createRequire } from "node:module";
import { load, median, summarize, type Sample } from "./load.ts";
import { children, freePort, sleep, startNode, type Child } from "./processes.ts";
import { stop } from "./sim.ts";

// The static-mock baseline: Prism (@stoplight/prism-cli, a devDependency) mocking the committed
// OpenAPI document. A user choosing between the simulator and a static mock sees both side by side.

const PRISM_CLI = createRequire(import.meta.url).resolve("@stoplight/prism-cli/dist/index.js");

export interface PrismStart {
  child: Child;
  base: string;
  /** From spawning the process to its first 200 on GET /api/v2/collection. */
  firstResponseMs: number;
}

export async function startPrism(): Promise<PrismStart> {
  const port = await freePort();
  const child = startNode([PRISM_CLI, "mock", "-h", "127.0.0.1", "-p", String(port), "docs/openapi.json"]);
  children.add(child);
  const base = `http://127.0.0.1:${port}`;
  for (;;) {
    if (!child.running) throw new Error(`prism exited:\n${child.output.slice(-3000)}`);
    if (performance.now() - child.startedAt > 120_000) throw new Error("prism did not answer in 2 minutes");
    const response = await fetch(`${base}/api/v2/collection`).catch(() => undefined);
    if (response?.ok) {
      await response.arrayBuffer();
      return { child, base, firstResponseMs: performance.now() - child.startedAt };
    }
    await sleep(10);
  }
}

export interface PrismRead {
  name: string;
  simulator: Sample;
  prism: Sample;
  /** Simulator req/s ÷ Prism req/s: the median of alternating rounds' ratios. */
  ratio: number;
}

/** The same read URLs against Prism and the simulator, in alternating rounds. */
export async function readsAgainstPrism(
  simulatorBase: string,
  prismBase: string,
  cases: { name: string; path: string }[],
  settings: { connections: number; seconds: number; warmup: number; rounds: number },
): Promise<PrismRead[]> {
  const results: PrismRead[] = [];
  for (const { name, path } of cases) {
    const run = (base: string, seconds: number) =>
      load({ url: `${base}${path}`, connections: settings.connections, seconds });
    await run(prismBase, settings.warmup);
    await run(simulatorBase, settings.warmup);
    const prism: Sample[] = [];
    const simulator: Sample[] = [];
    for (let round = 0; round < settings.rounds; round++) {
      prism.push(await run(prismBase, settings.seconds));
      simulator.push(await run(simulatorBase, settings.seconds));
    }
    results.push({
      name,
      simulator: summarize(simulator),
      prism: summarize(prism),
      ratio: median(simulator.map((s, i) => s.rps / prism[i]!.rps)),
    });
  }
  return results;
}

/** Prism's start-up, `runs` times (each process stopped before the next starts). */
export async function prismStartups(runs: number): Promise<number[]> {
  const times: number[] = [];
  for (let run = 0; run < runs; run++) {
    const prism = await startPrism();
    times.push(prism.firstResponseMs);
    await stop(prism.child);
  }
  return times;
}
