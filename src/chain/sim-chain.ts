import { formatTransactionReceipt, toHex, type Abi, type Address, type Hex, type TransactionReceipt } from "viem";
import type { ChainIndexer } from "../indexer/indexer.ts";
import type { ChainModels } from "../indexer/models.ts";
import type { Abis } from "./abi.ts";
import { BlockBatcher } from "./block-batcher.ts";
import type { CoreContracts } from "./deploy.ts";
import { MAX_FEE_PER_GAS, MAX_PRIORITY_FEE_PER_GAS } from "./fees.ts";
import type { Chain, PublicClient } from "./network.ts";
import { chainErrorOf, type RevertRules } from "./revert.ts";

/** One contract call as a transaction: where to, its calldata, and the coin it carries. */
export interface ContractCall {
  to: Address;
  data: Hex;
  value?: bigint;
}

export interface WriteOptions {
  /** Estimate first: a call the contract refuses throws before anything is sent (the API's writes). */
  dryRun?: boolean;
  /** Unix time of the block the transaction lands in (scenario replay). */
  at?: number;
}

// Without a dry run every transaction carries the same gas limit: no estimation round trip,
// and the same bytes (so the same hash) on every run. Enough for a 100-token addItems.
const FIXED_GAS = 15_000_000n;
const FEES = { maxFeePerGas: toHex(MAX_FEE_PER_GAS), maxPriorityFeePerGas: toHex(MAX_PRIORITY_FEE_PER_GAS) };

/** JSON-RPC methods that never change a chain; every other call may, so it marks the index stale. */
const READ_ONLY = new Set([
  "eth_blockNumber", "eth_call", "eth_chainId", "eth_estimateGas", "eth_feeHistory", "eth_gasPrice", "eth_getBalance",
  "eth_getBlockByHash", "eth_getBlockByNumber", "eth_getCode", "eth_getLogs", "eth_getStorageAt", "eth_getTransactionByHash",
  "eth_getTransactionCount", "eth_getTransactionReceipt", "eth_maxPriorityFeePerGas", "eth_accounts", "eth_syncing",
  "net_version", "web3_clientVersion",
]);

/**
 * A chain and its index, joined so that nothing can change the chain behind the
 * index's back: every write and every JSON-RPC call from outside passes through here,
 * and whatever may have changed the chain marks the index stale. Writers that answer
 * a caller wait for `confirmed(hash)`, which returns once the block is indexed.
 */
export class SimChain {
  readonly chainId: number;
  readonly contracts: CoreContracts;
  readonly abis: Abis;
  readonly indexer: ChainIndexer;
  readonly publicClient: PublicClient;
  readonly #chain: Chain;
  readonly #errorsAbi: Abi;
  /** Concurrent writes share a block; anything else that changes the chain runs between blocks. */
  readonly batcher: BlockBatcher;

  constructor(chain: Chain, contracts: CoreContracts, abis: Abis, indexer: ChainIndexer) {
    this.chainId = chain.chainId;
    this.#chain = chain;
    this.contracts = contracts;
    this.abis = abis;
    this.indexer = indexer;
    this.publicClient = chain.publicClient;
    this.batcher = new BlockBatcher(chain.connection.provider);
    this.#errorsAbi = [...abis.collection, ...abis.marketplace, ...abis.factory, ...abis.stablecoin].filter((entry) => entry.type === "error");
  }

  /** The read models as of the last sync. */
  get models(): ChainModels {
    return this.indexer.models;
  }

  /** Catch the index up with the chain, if anything may have changed it. */
  sync(): Promise<void> {
    return this.indexer.sync();
  }

  /** Any JSON-RPC call (the chain's port serves through this). */
  async request(method: string, params: unknown[] = []): Promise<unknown> {
    const provider = this.#chain.connection.provider;
    try {
      if (READ_ONLY.has(method)) return await provider.request({ method, params });
      return await this.batcher.exclusive(() => provider.request({ method, params }));
    } finally {
      if (!READ_ONLY.has(method)) this.indexer.markStale();
    }
  }

  /**
   * Sends a contract call from `from` (an account the chain holds a key for) and answers its hash.
   * A revert throws ChainRevert, named by `rules`; anything else ChainUnavailable.
   */
  async write(from: Address, call: ContractCall, rules: RevertRules = {}, { dryRun = false, at }: WriteOptions = {}): Promise<Hex> {
    const provider = this.#chain.connection.provider;
    const tx = { from, to: call.to, data: call.data, ...FEES, ...(call.value ? { value: toHex(call.value) } : {}) };
    try {
      // An estimate is exact for the state it saw; a write that lands after another may need more.
      // Against the latest block: while a batch waits to be mined, "pending" would run it first.
      const gas = dryRun ? (BigInt((await provider.request({ method: "eth_estimateGas", params: [tx, "latest"] })) as Hex) * 5n) / 4n : FIXED_GAS;
      // A write at a given time (the replay) has its block to itself; others may share one.
      if (at === undefined) return await this.batcher.send({ ...tx, gas: toHex(gas) });
      return await this.batcher.exclusive(async () => {
        await provider.request({ method: "evm_setNextBlockTimestamp", params: [at] });
        return (await provider.request({ method: "eth_sendTransaction", params: [{ ...tx, gas: toHex(gas) }] })) as Hex;
      });
    } catch (error) {
      throw chainErrorOf(error, this.#errorsAbi, rules);
    } finally {
      this.indexer.markStale();
    }
  }

  /** The transaction's receipt, once its block is indexed (read-your-writes). */
  async confirmed(hash: Hex): Promise<TransactionReceipt> {
    // A batched write's receipt was fetched when its block was mined.
    const batched = this.batcher.takeReceipt(hash);
    const receipt = batched ? formatTransactionReceipt(batched as never) : await this.publicClient.waitForTransactionReceipt({ hash });
    await this.indexer.syncTo(receipt.blockNumber);
    return receipt;
  }

  close(): Promise<void> {
    return this.#chain.close();
  }
}
