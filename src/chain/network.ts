import { hre } from "./hre.ts";
import type { NetworkConnection } from "hardhat/types/network";
import { toHex, type Address, type Hex } from "viem";
import { addressOf } from "../core/keys.ts";
import { lowerAddress } from "../core/formats.ts";
import type { RequestProvider } from "./block-batcher.ts";
import type { NodeLink } from "./node/link.ts";

export type Connection = NetworkConnection<"l1">;
export type Viem = Connection["viem"];
export type PublicClient = Awaited<ReturnType<Viem["getPublicClient"]>>;
export type WalletClient = Awaited<ReturnType<Viem["getWalletClient"]>>;

/** What SimChain drives: a chain's provider and public client, in process or on a node the simulator did not start. */
export interface ChainLink {
  chainId: number;
  /** A node the simulator did not start (src/chain/node/): it can go away, and others mine on it. */
  external: boolean;
  connection: { provider: RequestProvider };
  publicClient: PublicClient;
  /** On such a node: how to reach it, what it allows, and how writes go there. */
  node?: NodeLink;
  close(): Promise<void>;
}

/** One in-process EDR chain and the clients the simulator drives it with. */
export interface Chain extends ChainLink {
  connection: Connection;
  viem: Viem;
  /** A wallet client for one of the accounts the chain was started with (EDR signs). */
  wallet(address: Address): Promise<WalletClient>;
}

export interface ChainStart {
  chainId: number;
  /** Private keys of every account that will send transactions; each is funded at genesis. */
  keys: Hex[];
  /** Accounts without a key that will send transactions: sent as by impersonation, each given the same coin. */
  impersonated?: Address[];
  /** Genesis time; a past date lets a world be replayed at fixed times. */
  genesisTime?: Date;
}

const GENESIS_BALANCE = 10n ** 24n;

// EDR keeps the state of every block it mined in an LRU cache of 100,000 states by default, so
// each block that changes state stays in memory (~15 KB for a one-slot transaction, more for a
// mint). It reads the cap from this variable when a network is created; a state that falls out
// is rebuilt from the blocks' state diffs if a call ever asks for that old block. A value set by
// whoever starts the process wins.
const CACHED_STATES = "16";

async function withClients(chainId: number, connection: Connection, known: Set<Address>): Promise<Chain> {
  const viem = connection.viem;
  const publicClient = await viem.getPublicClient();
  const wallets = new Map<Address, Promise<WalletClient>>();
  return {
    chainId,
    external: false,
    connection,
    viem,
    publicClient,
    wallet(address) {
      const key = lowerAddress(address);
      if (!known.has(key)) throw new Error(`chain ${chainId} has no key for ${address}`);
      let client = wallets.get(key);
      if (!client) wallets.set(key, (client = viem.getWalletClient(key)));
      return client;
    },
    close: () => connection.close(),
  };
}

export async function startChain({ chainId, keys, impersonated = [], genesisTime }: ChainStart): Promise<Chain> {
  process.env.__EDR_MAX_CACHED_STATES ??= CACHED_STATES;
  const connection = (await hre.network.create({
    override: {
      chainId,
      accounts: keys.map((privateKey) => ({ privateKey, balance: GENESIS_BALANCE })),
      allowBlocksWithSameTimestamp: true,
      ...(genesisTime ? { initialDate: genesisTime } : {}),
    },
  })) as Connection;
  for (const address of impersonated) {
    await connection.provider.request({ method: "hardhat_impersonateAccount", params: [address] });
    await connection.provider.request({ method: "hardhat_setBalance", params: [address, toHex(GENESIS_BALANCE)] });
  }
  return withClients(chainId, connection, new Set(keys.map(addressOf)));
}
