import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { Hex } from "viem";
import { Accounts } from "./accounts.ts";
import { loadAbis, type Abis } from "./chain/abi.ts";
import { currencyTable } from "./chain/currencies.ts";
import { deployCore } from "./chain/deploy.ts";
import { addressOf, deployerKey } from "./chain/keys.ts";
import { startChain } from "./chain/network.ts";
import { ContractsFile } from "./chain/node/contracts-file.ts";
import { checkAttachedWorld, connectNodes, followNodes, recordWorld } from "./chain/node/nodes.ts";
import { ChainRegistry } from "./chain/registry.ts";
import { DEFAULT_RPC_ORIGINS, isLoopbackHost, type RpcPolicy } from "./chain/rpc-guard.ts";
import { serveRpc } from "./chain/rpc-server.ts";
import { SimChain } from "./chain/sim-chain.ts";
import { DEFAULT_OPTIONS, type ApiAccount, type ChainSetting, type SimulatorOptions } from "./config.ts";
import { Control } from "./control/control.ts";
import type { ControlAccess } from "./control/routes.ts";
import { createApp } from "./http/app.ts";
import type { Journal } from "./journal/journal.ts";
import { restoreState, type RestoredState } from "./journal/state.ts";
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
  /** Chains that already hold this world (attached with --contracts): nothing is sent there, what it keeps off-chain is read back. */
  attached?: ReadonlySet<number>;
}

/** What a world brings: API accounts, the other accounts it acts as, when it began, and how to seed it. */
export interface World {
  accounts: ApiAccount[];
  actorKeys: Hex[];
  genesisTime?: Date;
  /** The chains its seed writes to; a node's chain it leaves alone needs no block times (default: every chain). */
  chainIds?: readonly number[];
  seed(target: SeedTarget): Promise<void>;
  /** What makes this world the same on the next start (a journal only replays onto the world it was written on). */
  id?(url: string): string;
}

export interface Simulator extends SeedTarget {
  accounts: Accounts;
  /** Each chain's JSON-RPC URL, when the chains are served. */
  rpcUrls: Map<number, string>;
  /** Time, snapshots, API keys, faults, the request log (what `/_sim` serves). */
  control: Control;
  /** With `--state`: what the journal held at start. */
  restored?: Omit<RestoredState, "journal">;
  close(): Promise<void>;
}

/** Starts the chains, serves the API (503 until the world is in), seeds the world, and answers when it is ready. */
export async function startSimulator(world: World, overrides: Partial<SimulatorOptions> = {}): Promise<Simulator> {
  const options = { ...DEFAULT_OPTIONS, ...overrides };
  const abis = await loadAbis();
  const walletKeys = [...world.accounts.map((account) => account.walletKey), ...world.actorKeys];
  const contracts = options.contractsFile === undefined ? undefined : ContractsFile.open(options.contractsFile);
  const worldChains = world.chainIds && new Set(world.chainIds);
  const nodes = await connectNodes(options.nodeUrls, { abis, walletKeys, genesisTime: world.genesisTime, worldChains, given: options.givenKeys, contracts });
  const external = nodes.map((node) => node.chain);
  const inProcess = options.chains.filter(({ chainId }) => !external.some((chain) => chain.chainId === chainId));
  const chains = new ChainRegistry([...external, ...(await Promise.all(inProcess.map((setting) => startSimChain(setting, abis, walletKeys, world.genesisTime))))]);
  let stopFollowing = () => {};
  const servers: Server[] = [];
  const rpcUrls = new Map<number, string>();
  const drain = new Drain();
  let journal: Journal | undefined;
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
      stopFollowing();
      await chains.close();
      journal?.close();
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
    let url = "";
    const control = new Control({ chains, metadata, accounts, baseUrl: () => options.publicUrl ?? url });
    const app = createApp({ chains, metadata, accounts, drain, writes, control, controlAccess: controlAccess(options), durable: () => journal?.flush() ?? Promise.resolve(), isReady: () => ready, bodyLimit: options.bodyLimit, mintTimeoutMs: options.mintTimeoutMs });
    const api = app.listen(options.port, options.host);
    answerClientErrors(api, (status, message) => JSON.stringify(clientErrorBody(status, message)));
    servers.push(api);
    await new Promise<void>((resolve, reject) => api.once("listening", resolve).once("error", reject));
    url = urlOf(options.host, api);
    const attached = new Set(nodes.flatMap(({ chain, attached }) => (attached ? [chain.chainId] : [])));
    const sim: Simulator = { url, chains, metadata, accounts, rpcUrls, control, close, attached };
    const worldId = world.id?.(url) ?? "a world without an id";
    checkAttachedWorld(nodes, contracts, worldId, options.stateDir);
    await world.seed(sim);
    await chains.synced();
    await control.loaded();
    if (contracts) await recordWorld(nodes, contracts, worldId);
    // Blocks mined by others on a node we did not start (or a reorg there) are indexed as they come.
    stopFollowing = followNodes(external, options.pollIntervalMs);
    if (options.stateDir) {
      const { journal: opened, ...restored } = await restoreState(options.stateDir, `${worldId}; chains ${chains.ids().join(",")}`, control, (line) => console.warn(line));
      journal = opened;
      sim.restored = restored;
    }
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

/** The control API is on by default only on loopback; elsewhere only with the admin token, which it then requires. */
function controlAccess({ host, adminToken, apiCors }: SimulatorOptions): ControlAccess {
  const enabled = isLoopbackHost(host) || adminToken !== undefined;
  const offReason = `the control API is off: the API listens on ${host}, not loopback, and no --admin-token (or ADMIN_TOKEN) was given`;
  return { enabled, ...(enabled ? {} : { offReason }), token: adminToken, allowedOrigins: apiCors.length > 0 ? apiCors : LOOPBACK_ORIGINS };
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
