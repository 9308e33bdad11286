// Preloaded into the simulator by the soak phase (`node --expose-gc --import ./bench/lib/soak-hook.ts`):
// on SIGUSR2 it forces a full GC and appends process.memoryUsage() (bytes) to $BENCH_SOAK_OUT,
// one JSON line each; with $BENCH_HEAPSNAPSHOT_DIR set it also writes a heap snapshot there,
// so retained memory can be measured (and diffed) without an endpoint in the simulator.
import { appendFileSync } from "node:fs";
import { writeHeapSnapshot } from "node:v8";

const out = process.env.BENCH_SOAK_OUT;
const snapshots = process.env.BENCH_HEAPSNAPSHOT_DIR;
let taken = 0;
if (out) {
  process.on("SIGUSR2", () => {
    const gc = (globalThis as { gc?: () => void }).gc;
    if (gc) for (let i = 0; i < 3; i++) gc();
    const { rss, heapTotal, heapUsed, external, arrayBuffers } = process.memoryUsage();
    const snapshot = snapshots ? writeHeapSnapshot(`${snapshots}/soak-${++taken}.heapsnapshot`) : null;
    appendFileSync(
      out,
      JSON.stringify({ gc: Boolean(gc), rss, heapTotal, heapUsed, external, arrayBuffers, snapshot }) + "\n",
    );
  });
}
