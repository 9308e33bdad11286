import { fileURLToPath } from "node:url";
import hardhatViem from "@nomicfoundation/hardhat-viem";
import { createHardhatRuntimeEnvironment } from "hardhat/hre";

// The Hardhat runtime the simulator runs its chains with, built here instead of from
// hardhat.config.ts in the working directory: installed as a package, the simulator runs
// in a project that has no Hardhat config. It only reads compiled artifacts (shipped in
// artifacts/ beside src/ or dist/); compiling stays the job of `hardhat compile`.
const root = fileURLToPath(new URL("../../", import.meta.url));

export const hre = await createHardhatRuntimeEnvironment(
  {
    plugins: [hardhatViem],
    paths: { artifacts: `${root}artifacts`, cache: `${root}cache` },
    networks: { default: { type: "edr-simulated", chainType: "l1" } },
  },
  {},
  root,
);
