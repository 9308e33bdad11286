import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { Hex } from "viem";
import { Accounts } from "./accounts.ts";
import { loadAbis, type Abis } from "./chain/abi.ts";
import { currencyTable } from "./chain/currencies.ts";
import { deployCore } from "./chain/deploy.ts";
import { addressOf, deployerKey } from "./chain/keys.ts";
import { startChain } from "./chain/network.ts";
import { ChainRegistry } from "./chain/registry.ts";
import { DEFAULT_RPC_ORIGINS, isLoopbackHost, type RpcPolicy } from "./chain/rpc-guard.ts";
import { serveRpc } from "./chain/rpc-server.ts";
import { SimChain } from "./chain/sim-chain.ts";
import { DEFAULT_OPTIONS, type ApiAccount, type ChainSetting, type SimulatorOptions } from "./config.ts";
import { createApp } from "./http/app.ts";
import { isWildcardHost as isWildcard, LOOPBACK_ORIGINS } from "./http/origins.ts";
import { answerClientErrors } from "./http/client-errors.ts";
import { Drain } from "./http/shutdown.ts";
import { clientErrorBody } from "./errors.ts";
import { indexedEventsAbi } from "./indexer/decode.ts";
import { ChainIndexer } from "./indexer/indexer.ts";
import { MetadataStore } from "./metadata/store.ts";

/** What a world seeds into: the chains (written through their actions) and the off-chain metadata. */
export interface SeedTarget {
  /** The simulator's own base URL (collection `uri`s point at its metadata route by default). */
  url: string;
  chains: ChainRegistry;
  metadata: MetadataStore;
}

/** What a world brings: API accounts, the other accounts it acts as, when it began, and how to seed it. */
export interface World {
  accounts: ApiAccount[];
  actorKeys: Hex[];
  genesisTime?: Date;
  seed(target: SeedTarget): Promise<void>;
}

export interface Simulator extends SeedTarget {
  accounts: Accounts;
  /** Each chain's JSON-RPC URL, when the chains are served. */
  rpcUrls: Map<number, string>;
  close(): Promise<void>;
}

/** Starts the chains, serves the API (503 until the world is in), seeds the world, and answers when it is ready. */
export async function startSimulator(world: World, overrides: Partial<SimulatorOptions> = {}): Promise<Simulator> {
  const options = { ...DEFAULT_OPTIONS, ...overrides };
  const abis = await loadAbis();
  const walletKeys = [...world.accounts.map((account) => account.walletKey), ...world.actorKeys];
  const chains = new ChainRegistry(await Promise.all(options.chains.map((setting) => startSimChain(setting, abis, walletKeys, world.genesisTime))));
  const servers: Server[] = [];
  const rpcUrls = new Map<number, string>();
  const drain = new Drain();
  let closing: Promise<void> | undefined;
  /** Stop listening, refuse what arrives on kept-alive connections, let requests in flight finish (up to the timeout), then cut every socket. */
  const close = () =>
    (closing ??= (async () => {
      drain.stop();
      const closed = Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
      servers.forEach((server) => server.closeIdleConnections());
      await drain.settled(options.shutdownTimeoutMs);
      servers.forEach((server) => server.closeAllConnections());
      await closed;
      await chains.close();
    })());

  try {
    if (options.serveRpc) {
      const policy = rpcPolicy(options);
      for (const { chainId, rpcPort } of options.chains) {
        const server = await serveRpc(chains.get(chainId)!, options.rpcHost, rpcPort, policy);
        servers.push(server);
        rpcUrls.set(chainId, urlOf(options.rpcHost, server));
      }
    }
    let ready = false;
    const metadata = new MetadataStore();
    const accounts = new Accounts(world.accounts);
    const writes = { allowedHosts: [...options.rpcAllowedHosts, ...hostOf(options.publicUrl)], allowedOrigins: options.apiCors.length > 0 ? options.apiCors : LOOPBACK_ORIGINS };
    const app = createApp({ chains, metadata, accounts, drain, writes, isReady: () => ready, bodyLimit: options.bodyLimit, mintTimeoutMs: options.mintTimeoutMs });
    const api = app.listen(options.port, options.host);
    answerClientErrors(api, (status, message) => JSON.stringify(clientErrorBody(status, message)));
    servers.push(api);
    await new Promise<void>((resolve, reject) => api.once("listening", resolve).once("error", reject));
    const sim: Simulator = { url: urlOf(options.host, api), chains, metadata, accounts, rpcUrls, close };
    await world.seed(sim);
    await chains.synced();
    ready = true;
    return sim;
  } catch (error) {
    await close();
    throw error;
  }
}

async function startSimChain({ chainId }: ChainSetting, abis: Abis, walletKeys: Hex[], genesisTime: Date | undefined): Promise<SimChain> {
  const deployer = deployerKey(chainId);
  const chain = await startChain({ chainId, keys: [deployer, ...walletKeys], genesisTime });
  const contracts = await deployCore(chain, addressOf(deployer));
  const indexer = new ChainIndexer(chain.publicClient, indexedEventsAbi(abis), {
    chainId,
    factory: contracts.factory,
    marketplace: contracts.marketplace,
    currencies: currencyTable(chainId, contracts.stablecoin),
  });
  return new SimChain(chain, contracts, abis, indexer);
}

/** Who may call the chains' JSON-RPC ports; off loopback, nobody without the token. */
function rpcPolicy({ rpcHost, rpcAllowedHosts, rpcCors, adminToken }: SimulatorOptions): RpcPolicy {
  const loopback = isLoopbackHost(rpcHost);
  if (!loopback && !adminToken) {
    throw new Error(`the JSON-RPC ports would listen on ${rpcHost}, where anyone could send transactions as the developer wallets: set --admin-token (or ADMIN_TOKEN)`);
  }
  const bound = loopback || isWildcard(rpcHost) ? [] : [rpcHost];
  return { allowedHosts: [...rpcAllowedHosts, ...bound], allowedOrigins: rpcCors.length > 0 ? rpcCors : DEFAULT_RPC_ORIGINS, token: adminToken, loopback };
}

function hostOf(url: string | undefined): string[] {
  return url ? [new URL(url).hostname.toLowerCase()] : [];
}

/** Where this machine reaches a server: a wildcard address is reached on loopback. */
function urlOf(host: string, server: Server): string {
  return `http://${isWildcard(host) ? "127.0.0.1" : host}:${(server.address() as AddressInfo).port}`;
}
