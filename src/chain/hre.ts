import { fileURLToPath } from "node:url";
import hardhatViem from "@nomicfoundation/hardhat-viem";
import { createHardhatRuntimeEnvironment } from "hardhat/hre";

// The Hardhat runtime the simulator runs its chains with, built here instead of from
// hardhat.config.ts in the working directory: installed as a package, the simulator runs
// in a project that has no Hardhat config. Compiling stays the job of `hardhat compile`.
const root = fileURLToPath(new URL("../../", import.meta.url));

// Hardhat builds a contract decoder (Solidity stack traces, console.log) for its first
// network from every build info under its artifacts path: ~4 MB of compiler output, about
// 40 MB and a few hundred milliseconds at start. The simulator decodes reverts itself from
// their data (chain/revert.ts) and reads its artifacts itself (core/abi.ts), so Hardhat
// is pointed at a folder that holds no build info.
const NO_BUILD_INFO = `${root}artifacts/contracts`;

export const hre = await createHardhatRuntimeEnvironment(
  {
    plugins: [hardhatViem],
    paths: { artifacts: NO_BUILD_INFO, cache: `${root}cache` },
    networks: { default: { type: "edr-simulated", chainType: "l1" } },
  },
  {},
  root,
);
