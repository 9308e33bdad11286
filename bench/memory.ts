// `npm exec -- node bench/memory.ts`: where the simulator's resident memory goes at start-up.
// Loads, in order, what `npm run simulate` loads (Hardhat, the simulator's modules, the
// chains, the default world) and prints the process's RSS and V8 heap after each step.
import { readFileSync } from "node:fs";

const steps: { step: string; rssMB: number; heapUsedMB: number; peakRssMB: number }[] = [];
const mb = (bytes: number) => Math.round(bytes / 1048576);
function record(step: string): void {
  const peak = /VmHWM:\s+(\d+) kB/.exec(readFileSync("/proc/self/status", "utf8"))?.[1];
  const { rss, heapUsed } = process.memoryUsage();
  steps.push({
    step,
    rssMB: mb(rss),
    heapUsedMB: mb(heapUsed),
    peakRssMB: peak ? Math.round(Number(peak) / 1024) : NaN,
  });
}

record("node");
const hre = (await import("hardhat")).default;
record("hardhat");
const { startSimulator } = await import("../src/simulator/simulator.ts");
const { defaultWorld } = await import("../src/scenario/worlds.ts");
record("the simulator's modules");
const probe = await hre.network.create({ override: { chainId: 31337 } });
record("first in-process network (EDR runtime, contract decoder)");
await probe.close();
const sim = await startSimulator(defaultWorld(), { port: 0, serveRpc: false });
record("default world replayed on two chains, API serving");
await sim.close();
console.table(steps);
