// Before anything loads EDR: put its native binding back if npm skipped or pruned it.
import "./scripts/ensure-edr.mjs";
import { createRequire } from "node:module";
import { defineConfig } from "hardhat/config";
import hardhatViem from "@nomicfoundation/hardhat-viem";

const require = createRequire(import.meta.url);

// The compiler is the WASM build shipped by the `solc` npm package, pinned in
// package.json to this version, so compiling never downloads anything.
export const SOLC_VERSION = "0.8.28";

export default defineConfig({
  plugins: [hardhatViem],
  solidity: {
    version: SOLC_VERSION,
    path: require.resolve("solc/soljson.js"),
    settings: { optimizer: { enabled: true, runs: 200 } },
  },
  networks: {
    default: { type: "edr-simulated", chainType: "l1" },
  },
});
