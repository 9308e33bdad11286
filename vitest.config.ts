// Before any test loads EDR: put its native binding back if npm skipped or pruned it.
import "./scripts/ensure-edr.mjs";
import { availableParallelism } from "node:os";
import { configDefaults, defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    // The tests of the projects test/package/install.test.ts installs the packed package into.
    exclude: [...configDefaults.exclude, "test/package/consumer/**", "test/package/team/**"],
    globalSetup: ["test/temp-root.ts"],
    setupFiles: ["test/fast-check.ts"],
    // EDR is a native addon: run test files in child processes, not worker threads.
    pool: "forks",
    // A worker runs its files in one module registry: Hardhat, viem and the simulator load once per worker, not once
    // per file (the suite's import phase falls from about 190 s to 20 s). Every file closes what it starts and restores
    // what it mocks.
    isolate: false,
    // Two test files at a time at least: vitest's default is a core less than the machine has (one on two cores), and
    // most of a test's time is spent in the simulators and nodes it starts, not in its worker.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    testTimeout: 60_000,
    // expect.poll waits as long as any other wait of the suite (test/eventually.ts HANG_MS): a bound that tells a hang,
    // not a speed (vitest's default of 1 s fails a dashboard poll on a busy machine).
    expect: { poll: { timeout: 30_000, interval: 50 } },
    hookTimeout: 120_000,
  },
});
