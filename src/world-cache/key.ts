import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { artifact } from "../core/abi.ts";

// Bump when what is cached, or how it is read, changes.
const FORMAT = 8;

const require = createRequire(import.meta.url);
const versionOf = (packageJson: string) =>
  (JSON.parse(readFileSync(packageJson, "utf8")) as { version: string }).version;

/**
 * Everything that decides what a world's chains hold: the world (its scenario, its "now",
 * the base of its collection uris), the chains it runs on and the heights it starts at, the contracts' code, and the
 * versions of the simulator and of the EVM that replays it. Equal keys, equal chains.
 */
export function worldCacheKey(worldId: string, chains: { chainId: number; startBlock: number }[]): string {
  const parts = {
    format: FORMAT,
    simulator: versionOf(new URL("../../package.json", import.meta.url).pathname),
    hardhat: versionOf(require.resolve("hardhat/package.json")),
    edr: versionOf(join(dirname(require.resolve("@nomicfoundation/edr")), "package.json")),
    contracts: (["Collection", "CollectionFactory", "Marketplace", "TestStablecoin"] as const).map(
      (name) => artifact(name).bytecode,
    ),
    world: worldId,
    chains: [...chains].sort((a, b) => a.chainId - b.chainId),
  };
  return createHash("sha256").update(JSON.stringify(parts)).digest("hex").slice(0, 32);
}
