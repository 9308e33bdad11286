import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    // One simulator for the whole run, started before the tests (see README, "Use it in your project").
    globalSetup: ["./test/simulator.setup.ts"],
    // The simulator's chains are native code: forks, not worker threads.
    pool: "forks",
  },
});
