import type { Address, Hex } from "viem";
import type { Abis } from "./abi.ts";
import { chainFacts, deployCore } from "./deploy.ts";
import { addressOf, deployerKey } from "./keys.ts";
import { connectChain, startChain, type Chain } from "./network.ts";
import { SimChain } from "./sim-chain.ts";
import { indexedEventsAbi } from "../indexer/decode.ts";
import { ChainIndexer } from "../indexer/indexer.ts";
import { chainLogSource } from "../indexer/log-source.ts";
import type { ChainSetting } from "../config.ts";

// The one module that loads Hardhat (through ./network.ts): the simulator imports it only
// when it starts its chains, so an answer from a cached world need not wait for Hardhat.

export interface ChainsToStart {
  /** In-process chains (those not given by a node). */
  chains: ChainSetting[];
  /** Nodes the simulator did not start (--rpc-url). */
  nodeUrls: string[];
  /** Keys of every account the world sends from; funded at genesis (or on the node). */
  walletKeys: Hex[];
  genesisTime?: Date;
}

/** Starts (or connects to) every chain, deploys the core contracts on each and joins each to its index. */
export async function startChains({ chains, nodeUrls, walletKeys, genesisTime }: ChainsToStart, abis: Abis): Promise<SimChain[]> {
  const external = await Promise.all(nodeUrls.map((url) => connectSimChain(url, abis, walletKeys, genesisTime)));
  const inProcess = chains.filter(({ chainId }) => !external.some((chain) => chain.chainId === chainId));
  return [...external, ...(await Promise.all(inProcess.map((setting) => startSimChain(setting, abis, walletKeys, genesisTime))))];
}

/** A node given by --rpc-url: the core contracts are deployed there; a world's replay needs the node's head before the world's genesis. */
async function connectSimChain(url: string, abis: Abis, walletKeys: Hex[], genesisTime: Date | undefined): Promise<SimChain> {
  const chain = await connectChain(url, (chainId) => [deployerKey(chainId), ...walletKeys]);
  const head = await chain.publicClient.getBlock({ blockTag: "latest" });
  if (genesisTime && Number(head.timestamp) > genesisTime.getTime() / 1000 + 60) {
    await chain.close();
    throw new Error(
      `the node at ${url} (chain ${chain.chainId}) is at ${new Date(Number(head.timestamp) * 1000).toISOString()}, after the world's first steps ` +
        `(genesis ${genesisTime.toISOString()}): blocks cannot go back in time. Start the node at the world's genesis ` +
        `(anvil --timestamp ${Math.floor(genesisTime.getTime() / 1000)}), or use --fixture none`,
    );
  }
  return simChainOn(chain, abis, addressOf(deployerKey(chain.chainId)));
}

async function startSimChain({ chainId }: ChainSetting, abis: Abis, walletKeys: Hex[], genesisTime: Date | undefined): Promise<SimChain> {
  const deployer = deployerKey(chainId);
  const chain = await startChain({ chainId, keys: [deployer, ...walletKeys], genesisTime });
  return simChainOn(chain, abis, addressOf(deployer));
}

/** Deploys the core contracts on a chain and joins it to its index. */
async function simChainOn(chain: Chain, abis: Abis, deployer: Address): Promise<SimChain> {
  const contracts = await deployCore(chain, deployer);
  const indexer = new ChainIndexer(chainLogSource(chain.publicClient, indexedEventsAbi(abis)), chainFacts(chain.chainId, contracts));
  return new SimChain(chain, contracts, abis, indexer);
}
