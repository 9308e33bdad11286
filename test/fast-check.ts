import { randomInt } from "node:crypto";
import fc from "fast-check";

// Loaded before every test file (vitest.config.ts). Every property and fuzz run of the file draws from one seed,
// new on every run unless `FC_SEED` names it; each property says, when it has run, the seed and how many runs it
// made, so a failure anywhere is replayed with `FC_SEED=<seed> npx vitest run <file>`.

const seed = process.env.FC_SEED ? Number(process.env.FC_SEED) : randomInt(2 ** 31);
fc.configureGlobal({ seed });
// A worker's test files share one fast-check (vitest.config.ts: isolate false), whose plugins add up: the report is
// installed once per worker.
const REPORTS = Symbol.for("fast-check reports the seed");
if (!(REPORTS in globalThis)) {
  Object.assign(globalThis, { [REPORTS]: true });
  fc.installGlobalPlugin(() => ({
    onAllRunsComplete({ seed: used, numRuns, numSkips, failed }) {
      console.log(
        `fast-check: ${numRuns} runs${numSkips ? `, ${numSkips} skipped` : ""}${failed ? ", failed" : ""}, ` +
          `seed ${used} (FC_SEED=${used} repeats it)`,
      );
    },
  }));
}

/** The seed this file's properties and fuzz runs draw from (FC_SEED, or new on every run). */
export function drawnSeed(): number {
  return seed;
}
