import type { Address, Hex } from "viem";

import type { EventTuning } from "./event-tuning.ts";

/** What the simulator knows of each chain it can run: name, native coin and its USD price. */
export interface ChainProfile {
  chainId: number;
  name: string;
  nativeSymbol: string;
  nativeUsdPrice: number;
  /**
   * The block a world starts at on an in-process chain: a height the real chain had, so that blocks (and the event ids
   * that embed them) are never the same on two chains.
   */
  startBlock: number;
}

const CHAIN_PROFILES: Record<number, Omit<ChainProfile, "chainId">> = {
  1: { name: "Ethereum", nativeSymbol: "ETH", nativeUsdPrice: 3120.5, startBlock: 22_600_000 },
  56: { name: "BNB Smart Chain", nativeSymbol: "BNB", nativeUsdPrice: 243.06, startBlock: 51_000_000 },
  97: { name: "BNB Smart Chain Testnet", nativeSymbol: "tBNB", nativeUsdPrice: 243.06, startBlock: 54_000_000 },
  137: { name: "Polygon", nativeSymbol: "POL", nativeUsdPrice: 0.52, startBlock: 72_000_000 },
};

export const STABLECOIN_USD_PRICE = 1;

export function chainProfile(chainId: number): ChainProfile {
  return {
    chainId,
    ...(CHAIN_PROFILES[chainId] ?? {
      name: `Chain ${chainId}`,
      nativeSymbol: "ETH",
      nativeUsdPrice: 1,
      // A million blocks per chain id apart: no world is that long, so no two chains share a block number.
      startBlock: chainId * 1_000_000,
    }),
  };
}

/** Keys the user gave for a chain the simulator did not start (never printed; the banner shows addresses). */
export interface GivenKeys {
  /** Deploys the factory, marketplace and stablecoin (not needed when --contracts attaches to them). */
  deployer?: Hex;
  /** The world's accounts by name (the scenario's `accounts`), each a developer wallet or an actor. */
  accounts: ReadonlyMap<string, Hex>;
  /**
   * The accounts given several keys, by name: the whole pool of wallets that sign for the account's own (the first,
   * which is in `accounts`). Its API key's mints may be signed by any of them.
   */
  pools?: ReadonlyMap<string, readonly Hex[]>;
}

/** An API key, the account it belongs to and that account's developer wallet (a key the server holds). */
export interface ApiAccount {
  apiKey: string;
  name: string;
  walletKey: Hex;
  wallet: Address;
}

export interface ChainSetting {
  chainId: number;
  rpcPort: number;
  /**
   * The block the world starts at (its first block is this one): the world's own for the chain, else the chain's
   * profile's on an in-process chain; a node's chain starts where the node is unless the world names one.
   */
  startBlock?: number;
  /** Where the world has the marketplace (a live marketplace's address); default where the deployer's nonce puts it. */
  marketplace?: Address;
}

/** The block an in-process chain's world starts at. */
export function startBlockOf({ chainId, startBlock }: Pick<ChainSetting, "chainId" | "startBlock">): number {
  return startBlock ?? chainProfile(chainId).startBlock;
}

export interface SimulatorOptions {
  host: string;
  port: number;
  chains: ChainSetting[];
  /** Serve each chain as JSON-RPC on its rpcPort. */
  serveRpc: boolean;
  /** Interface the JSON-RPC ports listen on; loopback unless asked (independent of `host`). */
  rpcHost: string;
  /**
   * Host names the JSON-RPC ports answer, and the API takes writes under, besides loopback names (and IP addresses, for
   * the API).
   */
  rpcAllowedHosts: string[];
  /** Browser origins the JSON-RPC ports answer; empty means the loopback origins on any port. */
  rpcCors: string[];
  /** The base URL clients reach the API at (`--public-url`); its host may change state. */
  publicUrl?: string;
  /**
   * Browser origins that may change state through the API (mint, control API); empty means the loopback origins on any
   * port.
   */
  apiCors: string[];
  /** Bearer token every JSON-RPC call needs when the ports are not on loopback. */
  adminToken?: string;
  /** Largest accepted request body. */
  bodyLimit: string;
  /** How long a mint waits for its block before answering 504 MINT_PENDING. */
  mintTimeoutMs: number;
  /** On SIGTERM, how long requests in flight may finish before every socket is closed. */
  shutdownTimeoutMs: number;
  /**
   * JSON-RPC URLs of nodes the simulator did not start (--rpc-url); each replaces the in-process chain of its chain id.
   */
  nodeUrls: string[];
  /** How often the index looks for blocks mined by others on those nodes. */
  pollIntervalMs: number;
  /**
   * Keys of the world's wallets (and a deployer) on those nodes (`--keys`, SIM_KEYS): transactions are signed here,
   * nothing is impersonated or funded.
   */
  givenKeys?: GivenKeys;
  /** File of the contracts deployed on those nodes, per chain id (`--contracts`): a later start attaches to them. */
  contractsFile?: string;
  /** Directory of the journal that keeps every acknowledged change across restarts (`--state`). */
  stateDir?: string;
  /**
   * How much the journal grows past its checkpoint before it is folded into a new one (env STATE_CHECKPOINT_BYTES; by
   * default 4 MiB, or half the checkpoint's size once that is larger).
   */
  checkpointEveryBytes?: number;
  /**
   * Folder of the world cache: a world replayed once is answered from here on the next start while its chains replay it
   * (off when undefined).
   */
  cacheDir?: string;
  /** Worlds cached ahead, read-only, when `cacheDir` has none (the default cache: the worlds the package ships). */
  shippedWorldsDir?: string;
  /** Hosts webhooks may be sent to besides loopback (`--webhook-hosts`); `*` for any. */
  webhookHosts: string[];
  /** The bounds of pushed events (buffer, heartbeat, retries, queues), when not the defaults. */
  events?: EventTuning;
}

export const DEFAULT_OPTIONS: SimulatorOptions = {
  host: "127.0.0.1",
  port: 3000,
  chains: [
    { chainId: 56, rpcPort: 8545 },
    { chainId: 137, rpcPort: 8546 },
  ],
  serveRpc: true,
  rpcHost: "127.0.0.1",
  rpcAllowedHosts: [],
  rpcCors: [],
  apiCors: [],
  bodyLimit: "100kb",
  nodeUrls: [],
  pollIntervalMs: 1_000,
  mintTimeoutMs: 30_000,
  shutdownTimeoutMs: 5_000,
  webhookHosts: [],
};
