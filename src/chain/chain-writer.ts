// How writes and calls reach one running chain: each call made a transaction, sent alone, through the block batcher,
// or through a node's writer.
import { formatTransactionReceipt, type Address, type Hex, type TransactionReceipt, toHex } from "viem";
import type { ChainIndexer } from "../indexer/indexer.ts";
import { BlockBatcher, type SendableTx } from "./block-batcher.ts";
import { type ContractCall, type WriteOptions, FEES, FIXED_GAS, SHARED_GAS_STEP } from "./contract-call.ts";
import type { ChainLink } from "./network.ts";
import { NodeSnapshots } from "./node-snapshots.ts";
import type { ChainRecorder, RecordedChain } from "./recorder.ts";
import { heldSavepoint, type Savepoint } from "./savepoint.ts";

/** A contract call as the chain takes it, and how to send it alone. */
type Prepared = { sendable: SendableTx; send: () => Promise<Hex> };

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
  readonly snapshots = new NodeSnapshots();
  #recording: { recorder: ChainRecorder; chain: RecordedChain } | undefined;

  constructor(link: ChainLink) {
    this.link = link;
    this.#batcher = new BlockBatcher(link.connection.provider);
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

  /**
   * A contract call from `from` as the chain takes it (its gas limit estimated, given, or the fixed one), and how to send
   * it alone: in process the chain signs it (an account it only impersonates gets EDR's signature, the same on every
   * replay, so the same hash); a node's writer signs with the given keys (--keys) or sends as an impersonated account.
   * An estimate that reverts throws.
   */
  async prepare(
    from: Address,
    call: ContractCall,
    { dryRun = false, at, gas, pooled = false, sharedBlock = false }: WriteOptions,
  ): Promise<Prepared> {
    const provider = this.link.connection.provider;
    const tx = { from, to: call.to, data: call.data, ...FEES, ...(call.value ? { value: toHex(call.value) } : {}) };
    // An estimate is exact for the state it saw; a write that lands after another may need more.
    // Against the latest block: while a batch waits to be mined, "pending" would run it first. Without the fee caps: a
    // node caps the estimate at what the sender can pay for, and the wallet that signs (one of a pool) may not be `from`.
    const { maxFeePerGas: _cap, maxPriorityFeePerGas: _tip, ...unpriced } = tx;
    // A transaction that shares a pending block with others is estimated against it (they run before it there).
    const estimate = async (block: "latest" | "pending") =>
      (BigInt((await provider.request({ method: "eth_estimateGas", params: [unpriced, block] })) as Hex) * 5n) / 4n;
    const limit = async () =>
      dryRun ? estimate("latest") : sharedBlock ? roundedUp(await estimate("pending")) : FIXED_GAS;
    const sendable = { ...tx, gas: toHex(gas ?? (await limit())) };
    const node = this.link.node;
    if (node) return { sendable, send: () => node.writer.send(sendable, at, { pooled, pending: sharedBlock }) };
    const send = async () => {
      if (at !== undefined) await provider.request({ method: "evm_setNextBlockTimestamp", params: [at] });
      return (await provider.request({ method: "eth_sendTransaction", params: [sendable] })) as Hex;
    };
    return { sendable, send };
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

const roundedUp = (gas: bigint) => ((gas + SHARED_GAS_STEP - 1n) / SHARED_GAS_STEP) * SHARED_GAS_STEP;
