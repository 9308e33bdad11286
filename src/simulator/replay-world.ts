import type { Abis } from "../core/abi.ts";
import type { ChainSetting, SimulatorOptions } from "../core/config.ts";
import type { ContractsFile } from "../chain/node/contracts-file.ts";
import type { ChainRegistry } from "../chain/registry.ts";
import type { Control } from "../control/control.ts";
import type { ChainIndexer } from "../indexer/indexer.ts";
import type { World } from "../scenario/world.ts";

// Replaying a world: the chains started (Hardhat loads here, not before), then the world's scenario sent onto them.

export interface LoadInputs {
  world: World;
  options: SimulatorOptions;
  abis: Abis;
  /** The simulator's base URL (the world's collection uris may name it). */
  url: string;
  /** Filled here with the chains (or their index, loaded from an image). */
  chains: ChainRegistry;
  control: Control;
}

/**
 * Every chain started (or connected to: --rpc-url), the core contracts deployed, each joined to its index: a new one,
 * or `indexOf(chainId)`.
 */
export async function startChains(
  { world, options, abis }: Pick<LoadInputs, "world" | "options" | "abis">,
  contracts?: ContractsFile,
  indexOf?: (chainId: number) => ChainIndexer | undefined,
) {
  // Hardhat loads here, not before: an answer from an image does not wait for it.
  const { startChains: start } = await import("../chain/start.ts");
  const walletKeys = [...world.accounts.map((account) => account.walletKey), ...world.actorKeys];
  return start(
    {
      chains: worldChains(world, options),
      nodeUrls: options.nodeUrls,
      walletKeys,
      ...(world.impersonated?.length ? { impersonated: world.impersonated } : {}),
      ...(world.genesisTime ? { genesisTime: world.genesisTime } : {}),
      ...(world.chainIds ? { worldChains: new Set(world.chainIds) } : {}),
      ...(options.givenKeys ? { given: options.givenKeys } : {}),
      ...(contracts ? { contracts } : {}),
    },
    abis,
    indexOf,
  );
}

/** The world sent onto `chains` (read back where `attached`: nothing is sent there), and indexed. */
export async function replay(
  { world, url }: Pick<LoadInputs, "world" | "url">,
  chains: ChainRegistry,
  attached?: ReadonlySet<number>,
): Promise<void> {
  await world.seed({ url, chains, ...(attached && attached.size > 0 ? { attached } : {}) });
  await chains.sync();
}

/** The chains to start, each at the height the world names for it, with the marketplace where the world has it. */
export function worldChains(world: World, options: Pick<SimulatorOptions, "chains">): ChainSetting[] {
  return options.chains.map((chain) => {
    const startBlock = world.startBlocks?.get(chain.chainId);
    const marketplace = world.marketplaces?.get(chain.chainId);
    return {
      ...chain,
      ...(startBlock === undefined ? {} : { startBlock }),
      ...(marketplace === undefined ? {} : { marketplace }),
    };
  });
}
