import { closeSync, fdatasyncSync, openSync, rmSync, writeSync } from "node:fs";
import { join } from "node:path";

/**
 * How long this disk takes to make a journal-sized append durable (`fdatasync` of 2 KB appends in `dir`), in ms at the
 * median, p90 and p99: what a write with --state waits for, which varies with whatever else the machine's disk does.
 */
export function syncLatency(dir: string, appends = 300): { p50: number; p90: number; p99: number } {
  const path = join(dir, "sync-latency.probe");
  const fd = openSync(path, "w");
  const line = Buffer.alloc(2048, "x");
  const took: number[] = [];
  try {
    for (let i = 0; i < appends; i++) {
      writeSync(fd, line);
      const start = process.hrtime.bigint();
      fdatasyncSync(fd);
      took.push(Number(process.hrtime.bigint() - start) / 1e6);
    }
  } finally {
    closeSync(fd);
    rmSync(path, { force: true });
  }
  took.sort((a, b) => a - b);
  const at = (q: number) => took[Math.floor(q * (took.length - 1))]!;
  return { p50: at(0.5), p90: at(0.9), p99: at(0.99) };
}

export const formatLatency = ({ p50, p90, p99 }: ReturnType<typeof syncLatency>): string =>
  `p50 ${p50.toFixed(2)} ms, p90 ${p90.toFixed(2)} ms, p99 ${p99.toFixed(2)} ms`;
