import { formatTransactionReceipt, toHex, type Abi, type Address, type Hex, type TransactionReceipt } from "viem";
import type { ChainIndexer } from "../indexer/indexer.ts";
import type { ChainModels } from "../indexer/models.ts";
import type { Abis } from "./abi.ts";
import { BlockBatcher } from "./block-batcher.ts";
import type { CoreContracts } from "./deploy.ts";
import { MAX_FEE_PER_GAS, MAX_PRIORITY_FEE_PER_GAS } from "./fees.ts";
import type { ChainLink, PublicClient } from "./network.ts";
import type { NodeLink } from "./node/link.ts";
import type { ChainRecorder } from "./recorder.ts";
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
  /** This gas limit, as recorded (journal replay). */
  gas?: bigint;
}

// Without a dry run every transaction carries the same gas limit: no estimation round trip,
// and the same bytes (so the same hash) on every run. Enough for a 100-token addItems.
export const FIXED_GAS = 15_000_000n;
const FEES = { maxFeePerGas: toHex(MAX_FEE_PER_GAS), maxPriorityFeePerGas: toHex(MAX_PRIORITY_FEE_PER_GAS) };

/** JSON-RPC methods that never change a chain; any other call from outside may even rewrite its history (evm_revert). */
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
 *
 * Concurrent API writes share a block (`batcher`). While a journal records the chain
 * (`recordTo`), writes run one at a time instead, so the record's order is the chain's.
 */
export class SimChain {
  readonly chainId: number;
  readonly contracts: CoreContracts;
  readonly abis: Abis;
  readonly indexer: ChainIndexer;
  readonly publicClient: PublicClient;
  /** Concurrent writes share a block; anything else that changes the chain runs between blocks. */
  readonly batcher: BlockBatcher;
  readonly #chain: ChainLink;
  readonly #errorsAbi: Abi;
  #recorder: ChainRecorder | undefined;

  constructor(chain: ChainLink, contracts: CoreContracts, abis: Abis, indexer: ChainIndexer) {
    this.chainId = chain.chainId;
    this.#chain = chain;
    this.contracts = contracts;
    this.abis = abis;
    this.indexer = indexer;
    this.publicClient = chain.publicClient;
    this.batcher = new BlockBatcher(chain.connection.provider);
    this.#errorsAbi = [...abis.collection, ...abis.marketplace, ...abis.factory, ...abis.stablecoin].filter((entry) => entry.type === "error");
  }

  /** A node the simulator did not start (--rpc-url): it can go away, and others mine on it. */
  get external(): boolean {
    return this.#chain.external;
  }

  /** On such a node: how to reach it and what it allows. */
  get node(): NodeLink | undefined {
    return this.#chain.node;
  }

  /** The read models as of the last sync. */
  get models(): ChainModels {
    return this.indexer.models;
  }

  /** Catch the index up with the chain, if anything may have changed it. */
  sync(): Promise<void> {
    return this.indexer.sync();
  }

  /** From now on, every write and state-changing call from outside is recorded, in chain order. */
  recordTo(recorder: ChainRecorder | undefined): void {
    this.#recorder = recorder;
  }

  /**
   * Any JSON-RPC call (the chain's port serves through this). A state-changing one runs between
   * blocks and is recorded, unless `record` is false (the simulator's own calls, which record
   * themselves at a higher level).
   */
  async request(method: string, params: unknown[] = [], { record = true }: { record?: boolean } = {}): Promise<unknown> {
    const call = () => this.#chain.connection.provider.request({ method, params });
    if (READ_ONLY.has(method)) return call();
    const recorder = record ? this.#recorder : undefined;
    try {
      if (!recorder) return await this.batcher.exclusive(call);
      const result = await recorder.exclusive(() => this.#recorded(call, (at) => recorder.append({ t: "rpc", chainId: this.chainId, method, params, ...at })));
      await recorder.flush();
      return result;
    } finally {
      this.indexer.markRewritten();
    }
  }

  /**
   * Sends a contract call from `from` (an account the chain holds a key for) and answers its hash.
   * A revert throws ChainRevert, named by `rules`; anything else ChainUnavailable.
   */
  async write(from: Address, call: ContractCall, rules: RevertRules = {}, { dryRun = false, at, gas: givenGas }: WriteOptions = {}): Promise<Hex> {
    const provider = this.#chain.connection.provider;
    const tx = { from, to: call.to, data: call.data, ...FEES, ...(call.value ? { value: toHex(call.value) } : {}) };
    try {
      // An estimate is exact for the state it saw; a write that lands after another may need more.
      // Against the latest block: while a batch waits to be mined, "pending" would run it first.
      const estimate = async () => (BigInt((await provider.request({ method: "eth_estimateGas", params: [tx, "latest"] })) as Hex) * 5n) / 4n;
      const sendable = { ...tx, gas: toHex(givenGas ?? (dryRun ? await estimate() : FIXED_GAS)) };
      const node = this.#chain.node;
      const send = node
        ? () => node.writer.send(sendable, at)
        : async () => {
            if (at !== undefined) await provider.request({ method: "evm_setNextBlockTimestamp", params: [at] });
            return (await provider.request({ method: "eth_sendTransaction", params: [sendable] })) as Hex;
          };
      if (this.#recorder) return await this.#sendRecorded(this.#recorder, sendable, send);
      // A write at a given time (the replay) has its block to itself; others may share one (not on a node we did not start).
      return await (at === undefined && !this.#chain.external ? this.batcher.send(sendable) : this.batcher.exclusive(send));
    } catch (error) {
      throw chainErrorOf(error, this.#errorsAbi, rules);
    } finally {
      this.indexer.markStale();
    }
  }

  /** Sends alone and records the transaction as sent, with the time of the block it landed in (durable once the caller flushes). */
  #sendRecorded(recorder: ChainRecorder, sendable: Record<string, string>, send: () => Promise<Hex>): Promise<Hex> {
    const { from, to, data, value, gas } = sendable as { from: Address; to: Address; data: Hex; value?: Hex; gas: Hex };
    return recorder.exclusive(async () => {
      const hash = await send();
      const block = (await this.#chain.connection.provider.request({ method: "eth_getBlockByNumber", params: ["latest", false] })) as { timestamp: Hex; transactions: Hex[] };
      const mined = block.transactions.includes(hash) ? { at: Number(BigInt(block.timestamp)) } : {};
      recorder.append({ t: "tx", chainId: this.chainId, from, to, data, gas, ...(value ? { value } : {}), ...mined });
      return hash;
    });
  }

  /** Runs a call that may mine a block and records it with that block's time, even if the call then failed. */
  async #recorded<T>(call: () => Promise<T>, record: (mined: { at?: number }) => void): Promise<T> {
    const provider = this.#chain.connection.provider;
    const before = BigInt((await provider.request({ method: "eth_blockNumber", params: [] })) as Hex);
    let failed: { error: unknown } | undefined;
    const result = await call().catch((error: unknown) => void (failed = { error }));
    const head = (await provider.request({ method: "eth_getBlockByNumber", params: [toHex(before + 1n), false] })) as { timestamp: Hex } | null;
    if (head || !failed) record(head ? { at: Number(BigInt(head.timestamp)) } : {});
    if (failed) throw failed.error;
    return result as T;
  }

  /**
   * The transaction's receipt, once its block is indexed (read-your-writes).
   * Throws viem's WaitForTransactionReceiptTimeoutError if it is not mined within `timeoutMs`.
   */
  async confirmed(hash: Hex, { timeoutMs }: { timeoutMs?: number } = {}): Promise<TransactionReceipt> {
    // A batched write's receipt was fetched when its block was mined.
    const batched = this.batcher.takeReceipt(hash) ?? this.#chain.node?.writer.takeReceipt(hash);
    const receipt = batched
      ? formatTransactionReceipt(batched as never)
      : await this.publicClient.waitForTransactionReceipt({ hash, ...(timeoutMs ? { timeout: timeoutMs } : {}) });
    await this.indexer.syncTo(receipt.blockNumber, receipt.blockHash);
    return receipt;
  }

  close(): Promise<void> {
    return this.#chain.close();
  }
}
