import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    // One simulator for the whole run, started before the tests (see README, "Use it in your project").
    globalSetup: ["./test/simulator.setup.ts"],
    // The simulator's chains are native code: forks, not worker threads.
    pool: "forks",
    // A test that starts a simulator of its own (a fragment arranged, a second one) replays the demo world within it:
    // on a busy machine that passes vitest's default of 5 s. The bound the simulator's own suite gives a test.
    testTimeout: 60_000,
  },
});
