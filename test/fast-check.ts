import fc from "fast-check";

// Loaded before every test file (vitest.config.ts). A property test draws a new seed on every run and
// fast-check prints it with the failure it finds; `FC_SEED=<that seed> npm test -- <file>` replays it.
if (process.env.FC_SEED) fc.configureGlobal({ seed: Number(process.env.FC_SEED) });
