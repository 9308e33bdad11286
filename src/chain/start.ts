import type { Abis } from "../core/abi.ts";
import { chainFacts, deployCore, placeMarketplace } from "./deploy.ts";
import { addressOf, deployerKey } from "../core/keys.ts";
import { ensureEdrBinding } from "./edr-binding.ts";
import { startChain } from "./network.ts";
import type { ConnectedNode, NodeOptions } from "./node/connect.ts";
import { connectNodes } from "./node/nodes.ts";
import { ChainWriter } from "./chain-writer.ts";
import { SimChain } from "./sim-chain.ts";
import { indexedEventsAbi, chainLogSource } from "../indexer/log-source.ts";
import { ChainIndexer } from "../indexer/indexer.ts";
import { startBlockOf, type ChainSetting } from "../core/config.ts";
import { mineUntilNext } from "./height.ts";

// The one module that loads Hardhat (through ./network.ts): the simulator imports it only
// when it starts its chains, so an answer from a cached world need not wait for Hardhat.

export interface ChainsToStart extends Omit<NodeOptions, "abis"> {
  /** In-process chains (those not given by a node). */
  chains: ChainSetting[];
  /** Nodes the simulator did not start (--rpc-url). */
  nodeUrls: string[];
}

/**
 * Every chain, started (or connected to, `nodes`: src/chain/node/), the core contracts deployed on
 * each, each joined to its index: a new one on the chain, or `indexOf(chainId)` (the index of the
 * cached world the chain is about to replay).
 */
export async function startChains(
  { chains, nodeUrls, ...toNodes }: ChainsToStart,
  abis: Abis,
  indexOf: (chainId: number) => ChainIndexer | undefined = () => undefined,
): Promise<{ chains: SimChain[]; nodes: ConnectedNode[] }> {
  const byChain = <K extends "startBlock" | "marketplace">(key: K) =>
    new Map<number, NonNullable<ChainSetting[K]>>(
      chains.flatMap((setting) => (setting[key] === undefined ? [] : [[setting.chainId, setting[key]!] as const])),
    );
  const [startBlocks, marketplaces] = [byChain("startBlock"), byChain("marketplace")];
  const nodes = await connectNodes(nodeUrls, {
    abis,
    startBlocks,
    ...(marketplaces.size > 0 ? { marketplaces } : {}),
    ...toNodes,
  });
  const inProcess = chains.filter(({ chainId }) => !nodes.some(({ chain }) => chain.chainId === chainId));
  if (inProcess.length > 0) await ensureEdrBinding();
  const started = await Promise.all(
    inProcess.map((setting) => startSimChain(setting, abis, toNodes, indexOf(setting.chainId))),
  );
  return { chains: [...nodes.map(({ chain }) => chain), ...started], nodes };
}

/**
 * An in-process chain (EDR) at the world's height, with the core contracts deployed (the marketplace where the world
 * has it), joined to its index.
 */
async function startSimChain(
  setting: ChainSetting,
  abis: Abis,
  { walletKeys, impersonated = [], genesisTime }: Pick<NodeOptions, "walletKeys" | "impersonated" | "genesisTime">,
  index?: ChainIndexer,
): Promise<SimChain> {
  const { chainId } = setting;
  const deployer = deployerKey(chainId);
  const chain = await startChain({
    chainId,
    keys: [deployer, ...walletKeys],
    impersonated,
    ...(genesisTime ? { genesisTime } : {}),
  });
  await mineUntilNext(chain.connection.provider, startBlockOf(setting));
  const deployed = await deployCore(chain, addressOf(deployer));
  const request = (method: string, params: unknown[]) => chain.connection.provider.request({ method, params });
  const contracts = setting.marketplace
    ? await placeMarketplace(request, chainId, deployed, setting.marketplace)
    : deployed;
  const indexer =
    index ??
    new ChainIndexer(chainLogSource(chain.publicClient, indexedEventsAbi(abis)), chainFacts(chain.chainId, contracts));
  return new SimChain(chainId, contracts, abis, indexer, new ChainWriter(chain));
}
