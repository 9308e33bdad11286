import { defineConfig } from "vitest/config";

// The simulator's chains are native code: forks, not worker threads. A start replays the demo world (under a second,
// more on a loaded machine; the first start may also put EDR's native binding in place).
export default defineConfig({ test: { pool: "forks", testTimeout: 60_000, hookTimeout: 120_000 } });
