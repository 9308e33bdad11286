// Before any test loads EDR: put its native binding back if npm skipped or pruned it.
import "./scripts/ensure-edr.mjs";
import { configDefaults, defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    // The tests of the projects test/package/install.test.ts installs the packed package into.
    exclude: [...configDefaults.exclude, "test/package/consumer/**", "test/package/team/**"],
    setupFiles: ["test/fast-check.ts"],
    // EDR is a native addon: run test files in child processes, not worker threads.
    pool: "forks",
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});
