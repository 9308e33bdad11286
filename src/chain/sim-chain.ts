import { formatTransactionReceipt, type Abi, type Address, type Hex, type TransactionReceipt } from "viem";
import { indexedEventsAbi } from "../indexer/decode.ts";
import type { ChainIndexer } from "../indexer/indexer.ts";
import { chainLogSource } from "../indexer/log-source.ts";
import type { ReadModels } from "../indexer/models.ts";
import type { IndexObserver } from "../indexer/observer.ts";
import type { Abis } from "../core/abi.ts";
import { BlockBatcher } from "./block-batcher.ts";
import { ChainGate } from "./chain-gate.ts";
import type { CoreContracts } from "./deploy.ts";

export { FIXED_GAS, type ContractCall, type WriteOptions } from "./contract-call.ts";
import type { ChainLink, PublicClient } from "./network.ts";
import type { NodeLink } from "./node/link.ts";
import { LocalSigner } from "./local-signer.ts";
import type { ChainRecorder } from "./recorder.ts";
import { chainErrorOf, type RevertRules } from "./revert.ts";
import { runRecorded, sendRecorded } from "./recorded.ts";
import { READ_ONLY } from "./read-only.ts";
import type { ContractCall, WriteOptions } from "./contract-call.ts";
import { transactionOf } from "./transaction.ts";

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
  readonly #errorsAbi: Abi;
  #chain: ChainLink | undefined;
  #indexer: ChainIndexer;
  #batcher: BlockBatcher | undefined;
  /** Signs for the accounts the chain only impersonates, so their hashes are the same on every replay. */
  #signer: LocalSigner | undefined;
  #keyOf: ((address: Address) => Hex | undefined) | undefined;
  #recorder: ChainRecorder | undefined;
  /**
   * The index's mark (`markStale`) of each write not yet confirmed: a confirmed write nothing came after leaves the
   * index current.
   */
  readonly #marks = new Map<Hex, number>();
  /** The node snapshot ids evm_revert went back to, in order (each dropped every node snapshot from its id on). */
  readonly #revertedTo: bigint[] = [];
  /** Resolves once the chain runs (at once, unless the chain is still being started: `awaiting`). */
  readonly #started: Promise<void>;
  readonly #gate = new ChainGate();
  #start: () => void = () => undefined;

  constructor(chain: ChainLink | { chainId: number }, contracts: CoreContracts, abis: Abis, indexer: ChainIndexer) {
    this.chainId = chain.chainId;
    this.contracts = contracts;
    this.abis = abis;
    this.#indexer = indexer;
    this.#errorsAbi = [...abis.collection, ...abis.marketplace, ...abis.factory, ...abis.stablecoin].filter(
      (entry) => entry.type === "error",
    );
    if ("connection" in chain) {
      this.#chain = chain;
      this.#batcher = new BlockBatcher(chain.connection.provider);
      this.#signer = new LocalSigner(chain.connection.provider, chain.chainId);
      this.#started = Promise.resolve();
    } else {
      this.#started = new Promise((resolve) => (this.#start = resolve));
    }
  }

  /**
   * A chain whose read models are already known (a cached index of the world it will hold)
   * while the chain itself is still being started: it answers reads from `indexer` at once;
   * writes and JSON-RPC calls wait until `adopt` hands it the running chain.
   */
  static awaiting(chainId: number, contracts: CoreContracts, abis: Abis, indexer: ChainIndexer): SimChain {
    return new SimChain({ chainId }, contracts, abis, indexer);
  }

  /**
   * Takes over a started chain of the same world (its chain, index and block batcher); whatever waited for the chain
   * goes on.
   */
  adopt(started: SimChain): void {
    if (this.#chain) throw new Error(`chain ${this.chainId} already runs`);
    this.#chain = started.#chain;
    this.#batcher = started.#batcher;
    this.#signer = started.#signer;
    if (this.#keyOf) this.#signer?.knowKeys(this.#keyOf);
    this.#indexer = started.#indexer;
    this.#revertedTo.push(...started.#revertedTo);
    this.#start();
  }

  /** Resolves once the chain runs. */
  started(): Promise<void> {
    return this.#started;
  }

  get publicClient(): PublicClient {
    return this.#running().publicClient;
  }

  /** Where the keys of the simulator's own accounts are: what the chain only impersonates is signed here with them. */
  knowKeys(keyOf: (address: Address) => Hex | undefined): void {
    this.#keyOf = keyOf;
    this.#signer?.knowKeys(keyOf);
  }

  /** A node the simulator did not start (--rpc-url): it can go away, and others mine on it. */
  get external(): boolean {
    return this.#chain?.external ?? false;
  }

  /** On such a node: how to reach it and what it allows. */
  get node(): NodeLink | undefined {
    return this.#chain?.node;
  }

  #running(): ChainLink {
    if (!this.#chain) throw new Error(`chain ${this.chainId} is still starting`);
    return this.#chain;
  }

  /** The read models, once the index has caught up with the chain: the one way to read them. */
  async read(): Promise<ReadModels> {
    await this.sync();
    return this.#indexer.models;
  }

  /** Catch the index up with the chain, if anything may have changed it (once another caller's hold has ended). */
  async sync(): Promise<void> {
    await this.#gate.open();
    return this.#indexer.sync();
  }

  /** Blocks may have been mined by others (a node polled, a collection looked for at the head). */
  noticeMoved(): void {
    this.#indexer.markStale();
  }

  /** Blocks the index holds may have been replaced (a node others write to may have gone back). */
  noticeRewritten(): void {
    this.#indexer.markRewritten();
  }

  /** Remembers the models as of the head, to come back to if the chain does; answers a mark for `forgetCheckpoints`. */
  async checkpoint(): Promise<number> {
    const before = this.#indexer.checkpointCount;
    await this.#indexer.checkpoint();
    return before;
  }

  /** Forgets the checkpoints taken since `mark` (a savepoint no longer needed). */
  forgetCheckpoints(mark: number): void {
    this.#indexer.dropCheckpoints(mark);
  }

  /** Tells `observer` what each catch-up of the index adds and takes back (the event feed). */
  observe(observer: IndexObserver | undefined): void {
    this.#indexer.observe(observer);
  }

  /**
   * The index reads this chain from now on (after it was folded from the world cache), rebuilt if the chain disagrees.
   */
  indexFromChain(): void {
    this.#indexer.readFrom(chainLogSource(this.publicClient, indexedEventsAbi(this.abis)));
  }

  /**
   * Runs `work` with the chain to itself: writes under way finish first; every other write, call and read waits until
   * it is done. What `work` sends is not recorded on its own (its caller records what it did as a whole).
   */
  async hold<T>(work: () => Promise<T>): Promise<T> {
    await this.#started;
    return this.#gate.hold(work);
  }

  /** A mark to give `holdsSnapshot` with a node snapshot taken now. */
  get revertCount(): number {
    return this.#revertedTo.length;
  }

  /**
   * Whether the node still holds snapshot `id`, taken at `mark`: no evm_revert since (ours or from outside) went back
   * to it or before it.
   */
  holdsSnapshot(id: Hex, mark: number): boolean {
    return this.#revertedTo.slice(mark).every((revertedTo) => revertedTo > BigInt(id));
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
  async request(
    method: string,
    params: unknown[] = [],
    { record = true }: { record?: boolean } = {},
  ): Promise<unknown> {
    await this.#started;
    const call = async () => {
      const result = await this.#running().connection.provider.request({ method, params });
      if (method === "evm_revert" && result === true) this.#revertedTo.push(BigInt(params[0] as Hex));
      return result;
    };
    if (READ_ONLY.has(method)) return (await this.#gate.open(), call());
    const recorder = record && !this.#gate.heldHere() ? this.#recorder : undefined;
    try {
      if (!recorder) return await this.#gate.shared(() => this.#batcher!.exclusive(call));
      const result = await recorder.exclusive(() =>
        runRecorded(this.#running().connection.provider, call, (at) =>
          recorder.append({ t: "rpc", chainId: this.chainId, method, params, ...at }),
        ),
      );
      await recorder.flush();
      return result;
    } finally {
      this.#indexer.markRewritten();
    }
  }

  /**
   * Sends a contract call from `from` (an account the chain holds a key for) and answers its hash.
   * A revert throws ChainRevert, named by `rules`; anything else ChainUnavailable.
   */
  async write(from: Address, call: ContractCall, rules: RevertRules = {}, options: WriteOptions = {}): Promise<Hex> {
    await this.#started;
    // A journal runs writes one at a time already; otherwise they run beside each other, not during a hold.
    const recorder = this.#gate.heldHere() ? undefined : this.#recorder;
    if (!recorder) return this.#gate.shared(() => this.#write(from, call, rules, options, undefined));
    await this.#gate.open();
    return this.#write(from, call, rules, options, recorder);
  }

  async #write(
    from: Address,
    call: ContractCall,
    rules: RevertRules,
    options: WriteOptions,
    recorder: ChainRecorder | undefined,
  ): Promise<Hex> {
    const chain = this.#running();
    const provider = chain.connection.provider;
    let sent: Hex | undefined;
    try {
      const { sendable, send } = await transactionOf(chain, this.#signer, from, call, options);
      if (recorder) return (sent = await sendRecorded(provider, this.chainId, recorder, sendable, send));
      // A write at a given time (the replay) has its block to itself; others may share one. On a node we did not
      // start, others mine: an untimed write goes as it comes (the writer keeps each wallet's sends in order).
      if (options.at !== undefined) return (sent = await this.#batcher!.exclusive(send));
      return (sent = await (chain.external ? send() : this.#batcher!.send(sendable)));
    } catch (error) {
      throw chainErrorOf(error, this.#errorsAbi, rules);
    } finally {
      const mark = this.#indexer.markStale();
      // Others mine on a node we did not start: there, only the poll tells the index it is current.
      if (sent && !chain.external) this.#remember(sent, mark);
    }
  }

  #remember(hash: Hex, mark: number): void {
    // Writes nobody confirms (the replay's) do not pile up.
    if (this.#marks.size >= 1024) this.#marks.delete(this.#marks.keys().next().value!);
    this.#marks.set(hash, mark);
  }

  /**
   * The transaction's receipt, once its block is indexed (read-your-writes).
   * Throws viem's WaitForTransactionReceiptTimeoutError if it is not mined within `timeoutMs`.
   */
  async confirmed(hash: Hex, { timeoutMs }: { timeoutMs?: number } = {}): Promise<TransactionReceipt> {
    await this.#started;
    // A batched write's receipt was fetched when its block was mined.
    const batched = this.#batcher!.takeReceipt(hash) ?? this.#chain?.node?.writer.takeReceipt(hash);
    const receipt = batched
      ? formatTransactionReceipt(batched as never)
      : await this.publicClient.waitForTransactionReceipt({ hash, ...(timeoutMs ? { timeout: timeoutMs } : {}) });
    const mark = this.#marks.get(hash);
    this.#marks.delete(hash);
    await this.#indexer.syncTo(receipt.blockNumber, receipt.blockHash, mark);
    return receipt;
  }

  close(): Promise<void> {
    return this.#chain?.close() ?? Promise.resolve();
  }
}
