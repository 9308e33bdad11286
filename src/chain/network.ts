import { hre } from "./hre.ts";
import type { NetworkConnection } from "hardhat/types/network";
import type { Address, Hex } from "viem";
import { addressOf } from "./keys.ts";
import { lowerAddress } from "./address.ts";

export type Connection = NetworkConnection<"l1">;
export type Viem = Connection["viem"];
export type PublicClient = Awaited<ReturnType<Viem["getPublicClient"]>>;
export type WalletClient = Awaited<ReturnType<Viem["getWalletClient"]>>;

/** One in-process EDR chain and the clients the simulator drives it with. */
export interface Chain {
  chainId: number;
  /** A node the simulator did not start: a sent transaction may not be mined yet when the send answers. */
  external: boolean;
  connection: Connection;
  viem: Viem;
  publicClient: PublicClient;
  /** A wallet client for one of the accounts the chain was started with (EDR signs). */
  wallet(address: Address): Promise<WalletClient>;
  close(): Promise<void>;
}

export interface ChainStart {
  chainId: number;
  /** Private keys of every account that will send transactions; each is funded at genesis. */
  keys: Hex[];
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

/**
 * A node the simulator did not start (anvil, a Hardhat node): its chain id is read from it, and
 * every account of `keysFor(chainId)` is impersonated and funded there (the node must offer
 * `hardhat_impersonateAccount` and `hardhat_setBalance`, as anvil and Hardhat's node do).
 */
export async function connectChain(url: string, keysFor: (chainId: number) => Hex[]): Promise<Chain> {
  const connection = (await hre.network.create({ network: "external", override: { url } })) as unknown as Connection;
  const request = (method: string, params: unknown[] = []) => connection.provider.request({ method, params });
  const chainId = Number(await request("eth_chainId"));
  const known = new Set(keysFor(chainId).map(addressOf));
  for (const address of known) {
    await request("hardhat_impersonateAccount", [address]);
    await request("hardhat_setBalance", [address, `0x${GENESIS_BALANCE.toString(16)}`]);
  }
  return withClients(chainId, connection, known, true);
}

async function withClients(chainId: number, connection: Connection, known: Set<Address>, external = false): Promise<Chain> {
  const viem = connection.viem;
  const publicClient = await viem.getPublicClient();
  const wallets = new Map<Address, Promise<WalletClient>>();
  return {
    chainId,
    external,
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

export async function startChain({ chainId, keys, genesisTime }: ChainStart): Promise<Chain> {
  process.env.__EDR_MAX_CACHED_STATES ??= CACHED_STATES;
  const connection = (await hre.network.create({
    override: {
      chainId,
      accounts: keys.map((privateKey) => ({ privateKey, balance: GENESIS_BALANCE })),
      allowBlocksWithSameTimestamp: true,
      ...(genesisTime ? { initialDate: genesisTime } : {}),
    },
  })) as Connection;
  return withClients(chainId, connection, new Set(keys.map(addressOf)));
}
