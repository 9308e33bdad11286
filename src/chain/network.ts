import { hre } from "./hre.ts";
import type { NetworkConnection } from "hardhat/types/network";
import { toHex, type Address, type Hex } from "viem";
import type { RequestProvider } from "./block-batcher.ts";
import type { NodeLink } from "./node/link.ts";

export type Connection = NetworkConnection<"l1">;
export type PublicClient = Awaited<ReturnType<Connection["viem"]["getPublicClient"]>>;

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

/** One in-process EDR chain. */
export interface Chain extends ChainLink {
  connection: Connection;
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
  const publicClient = await connection.viem.getPublicClient();
  return { chainId, external: false, connection, publicClient, close: () => connection.close() };
}
