import { formatTransactionReceipt, type Abi, type Address, type Hex, type TransactionReceipt } from "viem";
import { indexedEventsAbi } from "../indexer/decode.ts";
import type { ChainIndexer } from "../indexer/indexer.ts";
import { chainLogSource } from "../indexer/log-source.ts";
import type { Abis } from "../core/abi.ts";
import { BlockBatcher } from "./block-batcher.ts";
import { IndexedChain } from "./indexed-chain.ts";
import type { CoreContracts } from "./deploy.ts";
import type { ChainLink, PublicClient } from "./network.ts";
import type { NodeLink } from "./node/link.ts";
import { LocalSigner } from "./local-signer.ts";
import { NodeSnapshots } from "./node-snapshots.ts";
import { StorageFull, type ChainRecorder, type RecordedChain } from "./recorder.ts";
import { heldSavepoint, type Savepoint } from "./savepoint.ts";
import { chainErrorOf, errorsAbiOf, type RevertRules } from "./revert.ts";
import { WriteMarks } from "./write-marks.ts";
import { READ_ONLY } from "./read-only.ts";
import type { ContractCall, WriteOptions } from "./contract-call.ts";
import { transactionOf } from "./transaction.ts";

export { FIXED_GAS, type ContractCall, type WriteOptions } from "./contract-call.ts";

/**
 * A chain and its index, joined so that nothing can change the chain behind the
 * index's back: every write and every JSON-RPC call from outside passes through here,
 * and whatever may have changed the chain marks the index stale. Writers that answer
 * a caller wait for `confirmed(hash)`, which returns once the block is indexed.
 *
 * Concurrent API writes share a block (`batcher`). While a journal records (`recordTo`), each block and each call
 * from outside is one step of it, in the chain's order, taken back if its record cannot be made durable.
 */
export class SimChain extends IndexedChain {
  readonly chainId: number;
  readonly contracts: CoreContracts;
  readonly abis: Abis;
  readonly #errorsAbi: Abi;
  #chain: ChainLink | undefined;
  #batcher: BlockBatcher | undefined;
  /** Signs for the accounts the chain only impersonates, so their hashes are the same on every replay. */
  #signer: LocalSigner | undefined;
  #keyOf: ((address: Address) => Hex | undefined) | undefined;
  #recorder: ChainRecorder | undefined;
  #snapshots = new NodeSnapshots();
  readonly #marks = new WriteMarks();
  /** Resolves once the chain runs (at once, unless the chain is still being started: `awaiting`). */
  readonly #started: Promise<void>;
  #start: () => void = () => undefined;

  constructor(chain: ChainLink | { chainId: number }, contracts: CoreContracts, abis: Abis, indexer: ChainIndexer) {
    super(indexer);
    this.chainId = chain.chainId;
    this.contracts = contracts;
    this.abis = abis;
    this.#errorsAbi = errorsAbiOf(abis);
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

  /** Takes over a started chain of the same world (all of it but, with `keepIndex`, its index); what waited goes on. */
  adopt(started: SimChain, { keepIndex = false }: { keepIndex?: boolean } = {}): void {
    if (this.#chain) throw new Error(`chain ${this.chainId} already runs`);
    this.#chain = started.#chain;
    this.#batcher = started.#batcher;
    this.#signer = started.#signer;
    this.#snapshots = started.#snapshots;
    if (this.#keyOf) this.#signer?.knowKeys(this.#keyOf);
    if (!keepIndex) this.indexer = started.indexer;
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

  /**
   * The index reads this chain from now on (after it was folded from the world cache or a journal), rebuilt if the
   * chain disagrees.
   */
  indexFromChain(): void {
    this.indexer.readFrom(chainLogSource(this.publicClient, indexedEventsAbi(this.abis)));
  }

  /**
   * Runs `work` with the chain to itself: writes under way finish first; every other write, call and read waits until
   * it is done. What `work` sends is not recorded on its own (its caller records what it did as a whole).
   */
  async hold<T>(work: () => Promise<T>): Promise<T> {
    await this.#started;
    return this.gate.hold(work);
  }

  /** A mark to give `holdsSnapshot` with a node snapshot taken now. */
  get revertCount(): number {
    return this.#snapshots.revertCount;
  }

  /**
   * Whether the node still holds snapshot `id`, taken at `mark`: no evm_revert since (ours or from outside) went back
   * to it or before it.
   */
  holdsSnapshot(id: Hex, mark: number): boolean {
    return this.#snapshots.holds(id, mark);
  }

  /** From now on, every write and state-changing call from outside is recorded, in chain order. */
  recordTo(recorder: ChainRecorder | undefined): void {
    this.#recorder = recorder;
    if (this.#running().external) return;
    this.#batcher!.recordWith(recorder && ((make) => recorder.block(this.#recorded(), make)));
  }

  /** This chain as its recorder is told of it. */
  #recorded(): RecordedChain {
    const chain = this.#running();
    return {
      chainId: this.chainId,
      provider: chain.connection.provider,
      savepoint: chain.external ? undefined : () => this.savepoint()!,
    };
  }

  /** Where a recorded change is taken back to (an in-process chain; a node we did not start keeps what it was sent). */
  savepoint(): Promise<Savepoint> | undefined {
    const chain = this.#running();
    if (chain.external) return undefined;
    return heldSavepoint(chain.connection.provider, this.indexer, (id) => {
      this.#snapshots.reverted(id);
      this.#batcher!.touched();
    });
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
    await this.#started;
    const provider = this.#running().connection.provider;
    const call = () => this.#snapshots.call(provider, method, params, caller);
    if (READ_ONLY.has(method)) return (await this.gate.open(), call());
    const held = this.gate.heldHere();
    const recorder = record && !held ? this.#recorder : undefined;
    try {
      // The holder has the chain to itself; while a journal records, what changes the chain unrecorded holds the
      // journal's turn already (a control action): both as they are.
      if (held) return await call();
      if (!recorder) return await this.gate.shared(() => (this.#recorder ? call() : this.#batcher!.exclusive(call)));
      await this.gate.open();
      return await recorder.call(this.#recorded(), method, params, call);
    } finally {
      this.#batcher?.touched();
      this.indexer.markRewritten();
    }
  }

  /**
   * Sends a contract call from `from` (an account the chain holds a key for) and answers its hash.
   * A revert throws ChainRevert, named by `rules`; anything else ChainUnavailable.
   */
  async write(from: Address, call: ContractCall, rules: RevertRules = {}, options: WriteOptions = {}): Promise<Hex> {
    await this.#started;
    if (this.gate.heldHere()) return this.#write(from, call, rules, options, true);
    // A journal runs writes in its own order; otherwise they run beside each other. Neither during a hold.
    if (!this.#recorder) return this.gate.shared(() => this.#write(from, call, rules, options, false));
    await this.gate.open();
    return this.#write(from, call, rules, options, false);
  }

  async #write(
    from: Address,
    call: ContractCall,
    rules: RevertRules,
    options: WriteOptions,
    held: boolean,
  ): Promise<Hex> {
    const chain = this.#running();
    let sent: Hex | undefined;
    try {
      const { sendable, send } = await transactionOf(chain, this.#signer, from, call, options);
      // The holder's writes are its own (recorded as a whole by its caller): each sent alone, as it comes.
      if (held) return (sent = await send());
      // On a node we did not start each send is a step of its own (recorded once mined; the node keeps it either way).
      if (this.#recorder && chain.node) return (sent = await this.#recorder.sent(this.#recorded(), sendable, send));
      // A write at a given time (the replay) has its block to itself; others may share one, each block a step of the
      // journal when one records. On a node we did not start, others mine: an untimed write goes as it comes (the
      // writer keeps each wallet's sends in order).
      if (options.at !== undefined) return (sent = await this.#batcher!.exclusive(send));
      return (sent = await (chain.external ? send() : this.#batcher!.send(sendable)));
    } catch (error) {
      // A write the journal refused (507) is the journal's answer, not the chain's.
      throw error instanceof StorageFull ? error : chainErrorOf(error, this.#errorsAbi, rules);
    } finally {
      const mark = this.indexer.markStale();
      // Others mine on a node we did not start: there, only the poll tells the index it is current.
      if (sent && !chain.external) this.#marks.remember(sent, mark);
    }
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
    await this.indexer.syncTo(receipt.blockNumber, receipt.blockHash, this.#marks.take(hash));
    return receipt;
  }

  close(): Promise<void> {
    return this.#chain?.close() ?? Promise.resolve();
  }
}
