// One chain as the simulator sees it: its index (reads that sync first, checkpoints, holds) plus its writer.
import { AsyncLocalStorage } from "node:async_hooks";
import type { Hex, Abi, Address, TransactionReceipt } from "viem";
import type { ChainIndexer } from "../indexer/indexer.ts";
import type { IndexObserver, ReadModels } from "../indexer/models.ts";
import { chainLogSource, indexedEventsAbi } from "../indexer/log-source.ts";
import type { Abis } from "../core/abi.ts";
import type { ChainWriter } from "./chain-writer.ts";
import type { CoreContracts } from "./deploy.ts";
import type { ChainLink, PublicClient } from "./network.ts";
import type { NodeLink } from "./node/link.ts";
import type { NodeSnapshots } from "./node-snapshots.ts";
import type { ChainRecorder, RecordedChain } from "./recorder.ts";
import { chainErrorOf, errorsAbiOf, type RevertRules } from "./revert.ts";
import type { Savepoint } from "./savepoint.ts";
import type { ContractCall, WriteOptions } from "./contract-call.ts";

/**
 * JSON-RPC methods that never change a chain; any other call from outside may even rewrite its history (evm_revert).
 */
const READ_ONLY = new Set([
  "eth_blockNumber",
  "eth_call",
  "eth_chainId",
  "eth_estimateGas",
  "eth_feeHistory",
  "eth_gasPrice",
  "eth_getBalance",
  "eth_getBlockByHash",
  "eth_getBlockByNumber",
  "eth_getCode",
  "eth_getLogs",
  "eth_getStorageAt",
  "eth_getTransactionByHash",
  "eth_getTransactionCount",
  "eth_getTransactionReceipt",
  "eth_maxPriorityFeePerGas",
  "eth_accounts",
  "eth_syncing",
  "net_version",
  "web3_clientVersion",
]);

/** How many marks of unconfirmed writes a chain keeps at most: writes nobody confirms (the replay's) do not pile up. */
const KEPT = 1024;

/** The gates the current async context holds (inside `ChainGate.hold`). */
const holding = new AsyncLocalStorage<ReadonlySet<ChainGate>>();

/**
 * Who may touch one chain: any number of writers at once (`shared`), or one holder alone (`hold`),
 * which waits for the writers under way and keeps every other caller waiting, reads included
 * (`open`), until it is done. What the holder calls, however deep, passes: the hold follows its
 * async context. A fragment of a scenario applies under a hold, so nothing lands between its
 * transactions and nobody reads it half-applied.
 */
export class ChainGate {
  #writers = 0;
  #drained: (() => void) | undefined;
  /** Holds queued or running; `#held` resolves when the latest of them ends. */
  #holds = 0;
  #held: Promise<void> = Promise.resolve();

  /** Whether the calling context holds this gate. */
  heldHere(): boolean {
    return holding.getStore()?.has(this) ?? false;
  }

  /** Resolves once no hold is queued or running (at once for the holder). */
  async open(): Promise<void> {
    if (this.heldHere()) return;
    while (this.#holds > 0) await this.#held;
  }

  /** Runs a write beside others; a hold waits for it to end. */
  async shared<T>(work: () => Promise<T>): Promise<T> {
    if (this.heldHere()) return work();
    // No await between the last look at the holds and counting this writer in: a hold starting meanwhile would miss it.
    while (this.#holds > 0) await this.#held;
    this.#writers += 1;
    try {
      return await work();
    } finally {
      this.#writers -= 1;
      if (this.#writers === 0) this.#drained?.();
    }
  }

  /** Runs `work` alone, once the writers under way are done and earlier holds have ended. */
  async hold<T>(work: () => Promise<T>): Promise<T> {
    if (this.heldHere()) return work();
    this.#holds += 1;
    const earlier = this.#held;
    let release!: () => void;
    this.#held = new Promise((resolve) => (release = resolve));
    try {
      await earlier;
      while (this.#writers > 0) await new Promise<void>((resolve) => (this.#drained = resolve));
      this.#drained = undefined;
      return await holding.run(new Set([...(holding.getStore() ?? []), this]), work);
    } finally {
      this.#holds -= 1;
      release();
    }
  }
}

export { FIXED_GAS, type ContractCall, type WriteOptions } from "./contract-call.ts";

/**
 * A chain's index and its writer, joined so that nothing can change the chain behind the index's back: every write
 * and every JSON-RPC call from outside passes through here, and whatever may have changed the chain marks the index
 * stale. Writers that answer a caller wait for `confirmed(hash)`, which returns once the block is indexed.
 *
 * The writer (chain-writer.ts) may join later than the index: a start that answers from an image of the world builds
 * the index at once and `connect`s the writer once the chain runs; until then writes and calls wait. While a recorder
 * listens (`recordTo`: the journal), each block and each call from outside is told to it, in the chain's order, and
 * answered once its record is durable (taken back if it cannot be made so).
 */
export class SimChain {
  /** The index: reached directly inside src/chain/ alone (savepoints, polls); elsewhere through the methods below. */
  readonly indexer: ChainIndexer;
  readonly #gate = new ChainGate();
  readonly chainId: number;
  readonly contracts: CoreContracts;
  readonly abis: Abis;
  readonly #errorsAbi: Abi;
  #writer: ChainWriter | undefined;
  /**
   * The index's mark (`markStale`) of each write not yet confirmed, the latest KEPT: a confirmed write nothing came
   * after leaves the index current.
   */
  readonly #marks = new Map<Hex, number>();
  /** Resolves once the writer is connected. */
  readonly #connected: Promise<void>;
  #connect: () => void = () => undefined;

  /** A chain from its index and, when it runs, its writer (or one `connect`ed later). */
  constructor(chainId: number, contracts: CoreContracts, abis: Abis, indexer: ChainIndexer, writer?: ChainWriter) {
    this.indexer = indexer;
    this.chainId = chainId;
    this.contracts = contracts;
    this.abis = abis;
    this.#errorsAbi = errorsAbiOf(abis);
    this.#connected = new Promise((resolve) => (this.#connect = resolve));
    if (writer) this.connect(writer);
  }

  /** The read models, once the index has caught up with the chain: the one way to read them. */
  async read(): Promise<ReadModels> {
    await this.sync();
    return this.indexer.models;
  }

  /** Catch the index up with the chain, if anything may have changed it (once another caller's hold has ended). */
  async sync(): Promise<void> {
    await this.#gate.open();
    return this.indexer.sync();
  }

  /** Tells `observer` what each catch-up of the index adds and takes back (the event feed). */
  observe(observer: IndexObserver | undefined): void {
    this.indexer.observe(observer);
  }

  /** The index no longer follows this chain (a journal replayed onto it, while answers come from an image). */
  stopIndexing(): void {
    this.indexer.freeze();
  }

  /** The index follows this chain again, catching up on what it missed (a replayed fragment reads the world). */
  resumeIndexing(): void {
    this.indexer.thaw();
  }

  /** The index as a checkpoint of the journal keeps it: its models, caught up, and its head's hash. */
  async indexed(): Promise<{ models: ReadModels; headHash: Hex | undefined }> {
    return { models: await this.read(), headHash: this.indexer.headHash };
  }

  /** The running chain's writer: writes and calls that waited go on through it. */
  connect(writer: ChainWriter): void {
    if (this.#writer) throw new Error(`chain ${this.chainId} already has its writer`);
    this.#writer = writer;
    this.#connect();
  }

  /** The writer, once connected (a chain replayed apart hands it on to the chain that answers). */
  get writer(): ChainWriter | undefined {
    return this.#writer;
  }

  get publicClient(): PublicClient {
    return this.#link().publicClient;
  }

  /** A node the simulator did not start (--rpc-url): it can go away, and others mine on it. */
  get external(): boolean {
    return this.#writer?.link.external ?? false;
  }

  /** On such a node: how to reach it and what it allows. */
  get node(): NodeLink | undefined {
    return this.#writer?.link.node;
  }

  #link(): ChainLink {
    if (!this.#writer) throw new Error(`chain ${this.chainId} is still starting`);
    return this.#writer.link;
  }

  /** The index reads this chain from now on (after it was loaded from an image), rebuilt if the chain disagrees. */
  indexFromChain(): void {
    this.indexer.readFrom(chainLogSource(this.publicClient, indexedEventsAbi(this.abis)));
  }

  /**
   * Runs `work` with the chain to itself: writes under way finish first; every other write, call and read waits until
   * it is done. What `work` sends is not recorded on its own (its caller records what it did as a whole).
   */
  async hold<T>(work: () => Promise<T>): Promise<T> {
    await this.#connected;
    return this.#gate.hold(work);
  }

  /** Which node snapshots the running chain still holds (no evm_revert, ours or from outside, went back past them). */
  get snapshots(): NodeSnapshots {
    return this.#writer!.snapshots;
  }

  /** From now on, every write and state-changing call from outside is told to `recorder`, in chain order. */
  recordTo(recorder: ChainRecorder | undefined): void {
    const chain: RecordedChain = {
      chainId: this.chainId,
      provider: this.#link().connection.provider,
      savepoint: this.external ? undefined : () => this.savepoint()!,
    };
    this.#writer!.recordTo(recorder, chain);
  }

  /** Where a recorded change is taken back to (an in-process chain; a node we did not start keeps what it was sent). */
  savepoint(): Promise<Savepoint> | undefined {
    return this.#writer!.savepoint(this.indexer);
  }

  /**
   * Any JSON-RPC call (the chain's port serves through this). A state-changing one runs between blocks and is recorded,
   * unless `record` is false (the simulator's own calls, which record themselves at a higher level, and a journal's
   * replay). `caller`: the call comes from outside (the port, or its record), which sees snapshot ids of its own.
   */
  async request(
    method: string,
    params: unknown[] = [],
    { record = true, caller = record }: { record?: boolean; caller?: boolean } = {},
  ): Promise<unknown> {
    await this.#connected;
    const writer = this.#writer!;
    const call = () => writer.call(method, params, caller);
    if (READ_ONLY.has(method)) return (await this.#gate.open(), call());
    const held = this.#gate.heldHere();
    const recording = record && !held ? writer.recording : undefined;
    try {
      // The holder has the chain to itself; while a journal records, what changes the chain unrecorded holds the
      // journal's turn already (a control action): both as they are.
      if (held) return await call();
      if (!recording) return await this.#gate.shared(() => (writer.recording ? call() : writer.alone(call)));
      await this.#gate.open();
      return await recording.recorder.call(recording.chain, method, params, call);
    } finally {
      writer.touched();
      this.indexer.markRewritten();
      // A call that may take the chain back (a revert, a reset): a node's writer asks for each wallet's nonce again.
      writer.link.node?.writer.forgetNonces();
    }
  }

  /**
   * Sends a contract call from `from` (an account the chain holds a key for) and answers its hash.
   * A revert throws ChainRevert, named by `rules`; anything else an error of the catalog (CHAIN_UNAVAILABLE, unless
   * the node's writer or the journal refused it).
   */
  async write(from: Address, call: ContractCall, rules: RevertRules = {}, options: WriteOptions = {}): Promise<Hex> {
    await this.#connected;
    if (this.#gate.heldHere()) return this.#write(from, call, rules, options, true);
    // A journal runs writes in its own order; otherwise they run beside each other. Neither during a hold.
    if (!this.#writer!.recording) return this.#gate.shared(() => this.#write(from, call, rules, options, false));
    await this.#gate.open();
    return this.#write(from, call, rules, options, false);
  }

  async #write(
    from: Address,
    call: ContractCall,
    rules: RevertRules,
    options: WriteOptions,
    held: boolean,
  ): Promise<Hex> {
    const writer = this.#writer!;
    let sent: Hex | undefined;
    try {
      const tx = await writer.prepare(from, call, options);
      // The holder's writes are its own (recorded as a whole by its caller): each sent alone, as it comes.
      return (sent = await (held ? tx.send() : writer.send(tx, options.at)));
    } catch (error) {
      // A write the journal refused (507) stays the journal's answer, not the chain's.
      throw chainErrorOf(error, this.#errorsAbi, rules);
    } finally {
      const mark = this.indexer.markStale();
      // Others mine on a node we did not start: there, only the poll tells the index it is current.
      if (sent && !writer.link.external) {
        if (this.#marks.size >= KEPT) this.#marks.delete(this.#marks.keys().next().value!);
        this.#marks.set(sent, mark);
      }
    }
  }

  /**
   * The transaction's receipt, once its block is indexed (read-your-writes).
   * Throws viem's WaitForTransactionReceiptTimeoutError if it is not mined within `timeoutMs`.
   */
  async confirmed(hash: Hex, { timeoutMs }: { timeoutMs?: number } = {}): Promise<TransactionReceipt> {
    await this.#connected;
    const receipt = await this.#writer!.receipt(hash, timeoutMs);
    const mark = this.#marks.get(hash);
    this.#marks.delete(hash);
    await this.indexer.syncTo(receipt.blockNumber, receipt.blockHash, mark);
    return receipt;
  }

  /** The hash a write was last sent as: a node's writer sends it again when another writer takes its nonce. */
  sentAs(hash: Hex): Hex {
    return this.#writer?.link.node?.writer.sentAs(hash) ?? hash;
  }

  close(): Promise<void> {
    return this.#writer?.close() ?? Promise.resolve();
  }
}
