import { formatTransactionReceipt, type Address, type Hex, type TransactionReceipt } from "viem";
import type { ChainIndexer } from "../indexer/indexer.ts";
import { BlockBatcher } from "./block-batcher.ts";
import type { ContractCall, WriteOptions } from "./contract-call.ts";
import { LocalSigner } from "./local-signer.ts";
import type { ChainLink } from "./network.ts";
import { NodeSnapshots } from "./node-snapshots.ts";
import type { ChainRecorder, RecordedChain } from "./recorder.ts";
import { heldSavepoint, type Savepoint } from "./savepoint.ts";
import { transactionOf } from "./transaction.ts";

/** A contract call as the chain takes it, and how to send it alone. */
type Prepared = Awaited<ReturnType<typeof transactionOf>>;

/**
 * How writes and calls reach one running chain. In process (EDR), writes that wait together share a block (the block
 * batcher), each block one step of the chain's recorder, and what must run alone (a write at a given time, a call from
 * outside) runs between blocks. On a node we did not start, others mine: each write goes as it comes through the
 * node's writer (which keeps each wallet's sends in order), a step of the recorder of its own. It keeps the snapshot
 * ids a JSON-RPC caller sees. SimChain joins it to the chain's index, once the chain runs.
 */
export class ChainWriter {
  readonly link: ChainLink;
  readonly #batcher: BlockBatcher;
  /** Signs for the accounts the chain only impersonates, so their hashes are the same on every replay. */
  readonly #signer: LocalSigner;
  readonly snapshots = new NodeSnapshots();
  #recording: { recorder: ChainRecorder; chain: RecordedChain } | undefined;

  constructor(link: ChainLink) {
    this.link = link;
    this.#batcher = new BlockBatcher(link.connection.provider);
    this.#signer = new LocalSigner(link.connection.provider, link.chainId);
  }

  /** Where the keys of the simulator's own accounts are: what the chain only impersonates is signed here with them. */
  knowKeys(keyOf: (address: Address) => Hex | undefined): void {
    this.#signer.knowKeys(keyOf);
  }

  /** From now on every change is told to `recorder` (undefined: no longer), as `chain`. */
  recordTo(recorder: ChainRecorder | undefined, chain: RecordedChain): void {
    this.#recording = recorder && { recorder, chain };
    if (!this.link.external) this.#batcher.recordWith(recorder && ((make) => recorder.block(chain, make)));
  }

  /** Who records this chain's changes, and as what chain (undefined: nobody, yet). */
  get recording(): { recorder: ChainRecorder; chain: RecordedChain } | undefined {
    return this.#recording;
  }

  /** A contract call from `from` as the chain takes it (see transactionOf). */
  prepare(from: Address, call: ContractCall, options: WriteOptions): Promise<Prepared> {
    return transactionOf(this.link, this.#signer, from, call, options);
  }

  /** Sends a prepared transaction; answers its hash once mined (or, on a node, once sent), and recorded. */
  send({ sendable, send }: Prepared, at: number | undefined): Promise<Hex> {
    const recording = this.#recording;
    // On a node we did not start each send is a step of its own (recorded once mined; the node keeps it either way).
    if (recording && this.link.node) return recording.recorder.sent(recording.chain, sendable, send);
    // A write at a given time (the replay) has its block to itself; others may share one.
    if (at !== undefined) return this.#batcher.exclusive(send);
    return this.link.external ? send() : this.#batcher.send(sendable);
  }

  /** A JSON-RPC call as made (`caller`: from outside, with snapshot ids of its own). */
  call(method: string, params: unknown[], caller: boolean): Promise<unknown> {
    return this.snapshots.call(this.link.connection.provider, method, params, caller);
  }

  /** Runs `run` with no block of the batcher open meanwhile. */
  alone<T>(run: () => Promise<T>): Promise<T> {
    return this.#batcher.exclusive(run);
  }

  /** Something ran on the chain outside the batcher: automine is asked for again before its next shared block. */
  touched(): void {
    this.#batcher.touched();
  }

  /**
   * The receipt of a sent transaction: a batched write's was fetched when its block was mined; a node's writer watches
   * what it sent until mined; anything else is waited for.
   */
  async receipt(hash: Hex, timeoutMs?: number): Promise<TransactionReceipt> {
    const node = this.link.node?.writer;
    const batched = this.#batcher.takeReceipt(hash) ?? node?.takeReceipt(hash) ?? (await node?.mined(hash, timeoutMs));
    if (batched) return formatTransactionReceipt(batched as never);
    return this.link.publicClient.waitForTransactionReceipt({ hash, ...(timeoutMs ? { timeout: timeoutMs } : {}) });
  }

  /**
   * Where a recorded change is taken back to, its index held meanwhile (in process; a node we did not start keeps what
   * it was sent).
   */
  savepoint(indexer: ChainIndexer): Promise<Savepoint> | undefined {
    if (this.link.external) return undefined;
    return heldSavepoint(this.link.connection.provider, indexer, (id) => {
      this.snapshots.reverted(id);
      this.#batcher.touched();
    });
  }

  close(): Promise<void> {
    return this.link.close();
  }
}
