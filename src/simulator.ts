import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { zeroAddress, type Hex } from "viem";
import { loadAbis, type Abis } from "./chain/abi.ts";
import { deployCore, type CoreContracts } from "./chain/deploy.ts";
import { addressOf, deployerKey } from "./chain/keys.ts";
import { startChain, type Chain } from "./chain/network.ts";
import { serveRpc } from "./chain/rpc-server.ts";
import { chainProfile, DEFAULT_OPTIONS, STABLECOIN_USD_PRICE, type ApiAccount, type SimulatorOptions } from "./config.ts";
import { createApp } from "./http/app.ts";
import { indexedEventsAbi } from "./indexer/decode.ts";
import { ChainIndexer } from "./indexer/indexer.ts";
import { MetadataStore } from "./metadata/store.ts";

/** One running chain: its contracts, its indexer and where wallets reach it. */
export interface SimChain {
  chainId: number;
  chain: Chain;
  contracts: CoreContracts;
  indexer: ChainIndexer;
  deployer: Hex;
  rpcUrl?: string;
}

/** What a world brings: API accounts, the other accounts it acts as, when it began, and how to seed it. */
export interface World {
  accounts: ApiAccount[];
  actorKeys: Hex[];
  genesisTime?: Date;
  seed(sim: Simulator): Promise<void>;
}

export interface Simulator {
  url: string;
  /** The world is replayed and indexed; until then the API answers 503. */
  ready: boolean;
  options: SimulatorOptions;
  chains: Map<number, SimChain>;
  accounts: ApiAccount[];
  metadata: MetadataStore;
  abis: Abis;
  close(): Promise<void>;
}

export async function startSimulator(world: World, overrides: Partial<SimulatorOptions> = {}): Promise<Simulator> {
  const options = { ...DEFAULT_OPTIONS, ...overrides };
  const abis = await loadAbis();
  const eventsAbi = indexedEventsAbi(abis);
  const walletKeys = [...world.accounts.map((account) => account.walletKey), ...world.actorKeys];
  const servers: Server[] = [];
  const chains = new Map<number, SimChain>();
  for (const { chainId, rpcPort } of options.chains) {
    const deployer = deployerKey(chainId);
    const chain = await startChain({ chainId, keys: [deployer, ...walletKeys], genesisTime: world.genesisTime });
    const contracts = await deployCore(chain, addressOf(deployer));
    const indexer = new ChainIndexer(chain.publicClient, eventsAbi, {
      chainId,
      factory: contracts.factory,
      marketplace: contracts.marketplace,
      currencies: new Map([
        [zeroAddress, { decimals: 18, usdPrice: chainProfile(chainId).nativeUsdPrice }],
        [contracts.stablecoin, { decimals: 6, usdPrice: STABLECOIN_USD_PRICE }],
      ]),
    });
    const simChain: SimChain = { chainId, chain, contracts, indexer, deployer };
    if (options.serveRpc) {
      const server = await serveRpc(chain.connection.provider, options.host, rpcPort, () => indexer.markStale());
      servers.push(server);
      simChain.rpcUrl = `http://${options.host}:${(server.address() as AddressInfo).port}`;
    }
    chains.set(chainId, simChain);
  }

  const sim: Simulator = {
    url: "",
    ready: false,
    options,
    chains,
    accounts: world.accounts,
    metadata: new MetadataStore(),
    abis,
    async close() {
      await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
      servers.forEach((server) => server.closeAllConnections());
      await Promise.all([...chains.values()].map(({ chain }) => chain.close()));
    },
  };
  const api = createApp(sim).listen(options.port, options.host);
  await new Promise<void>((resolve, reject) => api.once("listening", resolve).once("error", reject));
  servers.push(api);
  sim.url = `http://${options.host}:${(api.address() as AddressInfo).port}`;

  try {
    await world.seed(sim);
  } catch (error) {
    await sim.close();
    throw error;
  }
  await Promise.all([...chains.values()].map(({ indexer }) => (indexer.markStale(), indexer.sync())));
  sim.ready = true;
  return sim;
}
