// Preloaded into the simulator by bench/profile.ts (`node --import ./bench/lib/memory-hook.ts`):
// appends process.memoryUsage() (MB) to $BENCH_MEMORY_OUT every 100 ms, one JSON line each,
// so a peak RSS can be split into V8 heap, external memory and the rest (native code, EDR).
import { appendFileSync } from "node:fs";

const out = process.env.BENCH_MEMORY_OUT;
const started = performance.now();
const mb = (bytes: number) => Math.round((bytes / 1048576) * 10) / 10;
if (out) {
  setInterval(() => {
    const { rss, heapTotal, heapUsed, external, arrayBuffers } = process.memoryUsage();
    const line = {
      t: Math.round(performance.now() - started),
      rss: mb(rss),
      heapTotal: mb(heapTotal),
      heapUsed: mb(heapUsed),
      external: mb(external),
      arrayBuffers: mb(arrayBuffers),
    };
    appendFileSync(out, JSON.stringify(line) + "\n");
  }, 100).unref();
}
