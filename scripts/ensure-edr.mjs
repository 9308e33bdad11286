// Puts Hardhat's EDR native binding in place when npm left it out (npm on Node 20 skips it: it needs 22): before every
// script that runs the chain (prepare-chain.mjs), and when vitest or Hardhat loads its config. Run on the project's
// own Node 22, which npm scripts find first on PATH. The simulator does the same before its first in-process chain, so
// a project that installed the package on Node 20 gets it too (src/chain/edr-binding.ts).
import { ensureEdrBinding } from "../src/chain/edr-binding.ts";

await ensureEdrBinding((line) => console.log(line));
