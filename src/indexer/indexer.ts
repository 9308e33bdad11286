import { BlockNotFoundError, type Hex } from "viem";
import { apiError, ERRORS } from "../core/errors.ts";
import type { BlockRef, IndexedLog, LogSource } from "./log-source.ts";
import { advanceHead, applyLogs } from "./apply.ts";
import {
  emptyModels,
  type ChainFacts,
  type ChainModels,
  isEmpty,
  nothingFolded,
  takenBack,
  type Folded,
  type IndexObserver,
} from "./models.ts";

/** How an indexer follows a chain it may share with others (a node given by --rpc-url). */
export interface FollowOptions {
  /** The first block that can hold the simulator's logs: nothing before it is read. */
  fromBlock?: number;
  /**
   * A block the chain must still hold, with this hash, for the index to mean anything (where the core contracts were
   * deployed): checked whenever the chain may have been rewritten; if it no longer holds it, the chain was replaced.
   */
  anchor?: { blockNumber: number; hash: Hex };
  /**
   * Told when a new block is stamped before the indexed head (a node restarted with a start time): time-derived answers
   * follow that clock.
   */
  onClockBack?: (message: string) => void;
}

/** What to say when the earliest of `blockTimes` is stamped before the indexed head's time (undefined: it is not). */
function clockWentBack({ head, facts }: ChainModels, blockTimes: Map<bigint, number>): string | undefined {
  const [number, time] = [...blockTimes].reduce((earliest, entry) => (entry[1] < earliest[1] ? entry : earliest));
  if (head.blockNumber < 0 || time >= head.timestamp) return undefined;
  const at = (seconds: number) => new Date(seconds * 1000).toISOString();
  return (
    `chain ${facts.chainId}'s clock went back: block ${number} is stamped ${at(time)}, before block ` +
    `${head.blockNumber} (${at(head.timestamp)}); ` +
    "volumes and dates follow the chain's clock (was the node restarted with a start time, e.g. anvil " +
    "--timestamp?)"
  );
}

/** The read models as they were at their head, and its hash (to tell whether the chain still has that block). */
interface Checkpoint {
  hash: Hex | undefined;
  models: ChainModels;
}

/** Where the index has to get to: a block number, and its hash and time when the caller knows them. */
type Target = Pick<BlockRef, "number"> & Partial<BlockRef>;

/**
 * Follows one chain: pulls the logs of every block it has not seen yet and folds
 * them into the read models. Writers call `syncTo` with their receipt's block so
 * a write answers only once it is indexed; readers call `sync` when the chain may
 * have moved (a JSON-RPC call from outside, time travel).
 *
 * When the chain may have rewritten its history (evm_revert, a reorg), the next sync
 * checks that the indexed head is still on the chain; if not, the models go back to
 * the newest checkpoint the chain still holds (genesis at worst) and are rebuilt from there.
 */
export class ChainIndexer {
  #models: ChainModels;
  #headHash: Hex | undefined;
  #checkpoints: Checkpoint[] = [];
  #source: LogSource;
  readonly #follow: FollowOptions;
  #running: Promise<void> = Promise.resolve();
  #stale = true;
  #mayBeRewritten = false;
  /** How many times the chain may have changed (each markStale or markRewritten). */
  #changes = 0;
  #observer: IndexObserver | undefined;
  /** What rewinds took back since the observer was last told. */
  #removed: Folded = nothingFolded();
  /** No longer follows the chain (`freeze`): the index of chains a journal is replayed on, which answer no one. */
  #frozen = false;
  /**
   * The heads before each change not durable yet (a journal's step): no block after the lowest is indexed, for its
   * change may still be taken back.
   */
  readonly #holds: number[] = [];

  /** `from`: the models as they stood at the source's head (a journal's checkpoint), instead of folding its logs. */
  constructor(
    source: LogSource,
    facts: ChainFacts,
    follow: FollowOptions = {},
    from?: { models: ChainModels; headHash: Hex | undefined },
  ) {
    this.#source = source;
    this.#follow = follow;
    this.#models = from ? { ...from.models, facts } : this.#origin(facts);
    this.#headHash = from?.headHash;
  }

  /** Empty models, as of the block before the first one that can hold the simulator's logs. */
  #origin(facts: ChainFacts): ChainModels {
    const models = emptyModels(facts);
    models.head.blockNumber = (this.#follow.fromBlock ?? 0) - 1;
    return models;
  }

  get models(): ChainModels {
    return this.#models;
  }

  /** Tells `observer` what each catch-up adds and takes back from now on, and when the chain may have moved. */
  observe(observer: IndexObserver | undefined): void {
    this.#observer = observer;
  }

  /**
   * New blocks may exist. Answers a mark for `syncTo`, which then knows whether anything else changed the chain since.
   */
  markStale(): number {
    this.#stale = true;
    this.#observer?.mayHaveMoved();
    return ++this.#changes;
  }

  /** Blocks the index holds may have been replaced or dropped (a revert, a reorg, anything unknown from outside). */
  markRewritten(): void {
    this.#mayBeRewritten = true;
    this.markStale();
  }

  /**
   * Reads from `source` from now on (the chain itself, after an index loaded from an image of it):
   * the next sync checks that the new source holds the indexed head, and if not rebuilds from where
   * it does, as after a rewrite.
   */
  readFrom(source: LogSource): void {
    this.#source = source;
    this.markRewritten();
  }

  /** Until `release(blockNumber)`, nothing after block `blockNumber` is indexed: later ones may still be taken back. */
  hold(blockNumber: number): void {
    this.#holds.push(blockNumber);
  }

  release(blockNumber: number): void {
    const at = this.#holds.indexOf(blockNumber);
    if (at !== -1) this.#holds.splice(at, 1);
    this.#stale = true;
  }

  /** The indexed head's hash (undefined before the first block is indexed, or when it came without one). */
  get headHash(): Hex | undefined {
    return this.#headHash;
  }

  /** Stops following the chain: syncs and checkpoints do nothing from now on (its answers come from elsewhere). */
  freeze(): void {
    this.#frozen = true;
  }

  /** Follows the chain again after `freeze`, as if anything may have happened to it meanwhile. */
  thaw(): void {
    if (!this.#frozen) return;
    this.#frozen = false;
    this.markRewritten();
  }

  /** Catch up with the chain if it may have moved. */
  async sync(): Promise<void> {
    if (!this.#stale || this.#frozen) return this.#running;
    this.#stale = false;
    return this.#serialized(() => this.#catchUp());
  }

  /**
   * Make sure everything up to `blockNumber` is indexed (a writer's receipt block: its logs carry
   * its time). With `mark` (what markStale answered once the writer's block was made): if nothing
   * changed the chain since, that block is the chain's head, so the index is current and the next
   * read need not ask the chain.
   */
  async syncTo(blockNumber: bigint, blockHash?: Hex, mark?: number): Promise<void> {
    if (this.#frozen) return;
    if (this.#mayBeRewritten || this.#models.head.blockNumber < Number(blockNumber))
      await this.#serialized(() => this.#catchUp({ number: blockNumber, hash: blockHash }));
    else await this.#running;
    if (mark === this.#changes && !this.#mayBeRewritten && this.#models.head.blockNumber === Number(blockNumber))
      this.#stale = false;
  }

  /** Remember the models as of the indexed head, to come back to if the chain returns to this block. */
  async checkpoint(): Promise<void> {
    if (this.#frozen) return;
    await this.sync();
    return this.#serialized(async () => {
      this.#checkpoints.push({ hash: this.#headHash, models: structuredClone(this.#models) });
    });
  }

  /** How many checkpoints are kept (to drop those taken after this moment with `dropCheckpoints`). */
  get checkpointCount(): number {
    return this.#checkpoints.length;
  }

  /** Forget every checkpoint after the first `keep` (a reset back to the world as loaded). */
  dropCheckpoints(keep: number): void {
    this.#checkpoints.length = Math.min(keep, this.#checkpoints.length);
  }

  #serialized(step: () => Promise<void>): Promise<void> {
    const run = this.#running.then(step);
    this.#running = run.catch(() => {
      this.#stale = true;
    });
    return run;
  }

  /** Index every block after the head up to `to`, or up to the chain's latest block; tell the observer what changed. */
  async #catchUp(to?: Target): Promise<void> {
    const added = this.#observer ? nothingFolded() : undefined;
    try {
      await this.#fold(added, to);
    } finally {
      if (this.#observer && (!isEmpty(this.#removed) || (added && !isEmpty(added)))) {
        this.#observer.indexed({ models: this.#models, removed: this.#removed, added: added ?? nothingFolded() });
        this.#removed = nothingFolded();
      }
    }
  }

  async #fold(added: Folded | undefined, to?: Target): Promise<void> {
    if (this.#mayBeRewritten) {
      // Cleared only once the checks are done: a node that does not answer now is asked again next time.
      await this.#checkAnchor();
      await this.#rewindIfForked();
      this.#mayBeRewritten = false;
    } else if (this.#follow.anchor) {
      // A chain others write to may have gone back since the last look without anyone telling (an evm_revert, a
      // reorg): the indexed head must still be on it before blocks after it are read, or they would not follow it.
      await this.#rewindIfForked();
    }
    let target: Target = to ?? (await this.#source.latest());
    const limit = this.#holds.reduce((lowest, head) => (BigInt(head) < lowest ? BigInt(head) : lowest), target.number);
    if (limit < target.number) [target, this.#stale] = [{ number: limit }, true];
    const fromBlock = BigInt(this.#models.head.blockNumber + 1);
    if (target.number < fromBlock) return;
    const logs = await this.#source.logs(fromBlock, target.number, this.#models);
    const blockTimes = new Map<bigint, number>(
      target.timestamp !== undefined ? [[target.number, Number(target.timestamp)]] : [],
    );
    const headHash = target.hash ?? logs.findLast((log) => log.blockNumber === target.number)?.blockHash ?? undefined;
    const fetched = await this.#addBlockTimes(blockTimes, logs, target.number);
    const back = this.#follow.onClockBack && clockWentBack(this.#models, blockTimes);
    if (back) this.#follow.onClockBack!(back);
    applyLogs(this.#models, logs, blockTimes, added);
    advanceHead(this.#models, { number: target.number, timestamp: BigInt(blockTimes.get(target.number)!) });
    this.#headHash = headHash ?? fetched.get(target.number);
  }

  async #checkAnchor(): Promise<void> {
    const anchor = this.#follow.anchor;
    if (!anchor) return;
    const found = await this.#hashAt(anchor.blockNumber);
    if (found === anchor.hash) return;
    // The node was restarted fresh, or points at another chain (503).
    const { chainId } = this.#models.facts;
    const detail =
      `chain ${chainId} is not the chain the simulator loaded: block ${anchor.blockNumber}, where its contracts were ` +
      `deployed, ${found ? `is now ${found}, not ${anchor.hash}` : "is gone"} (was the node restarted without its state?)`;
    throw apiError(ERRORS.CHAIN_REPLACED, { chainId }, { errors: [detail] });
  }

  /** If the indexed head is no longer on the chain, go back to the newest checkpoint that is. */
  async #rewindIfForked(): Promise<void> {
    if (await this.#stillOnChain(this.#models.head.blockNumber, this.#headHash)) return;
    while (this.#checkpoints.length > 0) {
      const newest = this.#checkpoints.at(-1)!;
      const { blockNumber } = newest.models.head;
      if (blockNumber <= this.#models.head.blockNumber && (await this.#stillOnChain(blockNumber, newest.hash)))
        return this.#restore(newest);
      this.#checkpoints.pop();
    }
    this.#restore({ hash: undefined, models: this.#origin(this.#models.facts) });
  }

  async #stillOnChain(blockNumber: number, hash: Hex | undefined): Promise<boolean> {
    if (blockNumber < (this.#follow.fromBlock ?? 0)) return true;
    return (await this.#hashAt(blockNumber)) === hash;
  }

  /**
   * The hash of the chain's block at `blockNumber`, or undefined if it has none. A chain that does not answer throws:
   * that is not a block gone.
   */
  async #hashAt(blockNumber: number): Promise<Hex | undefined> {
    try {
      return (await this.#source.block(BigInt(blockNumber))).hash;
    } catch (error) {
      if (error instanceof BlockNotFoundError) return undefined;
      throw error;
    }
  }

  /** A copy of the checkpoint's models (it may be restored again), versioned past every earlier view. */
  #restore(checkpoint: Checkpoint): void {
    const version = this.#models.version + 1;
    const before = this.#models;
    this.#models = { ...structuredClone(checkpoint.models), facts: this.#models.facts, version };
    if (this.#observer) {
      const taken = takenBack(before, this.#models);
      this.#removed.activity.push(...taken.activity);
      this.#removed.collections.push(...taken.collections);
    }
    this.#headHash = checkpoint.hash;
  }

  /**
   * The time of every block with logs, and of the new head: EDR puts it on each log; other blocks are asked for.
   * Answers the hashes of the blocks it fetched.
   */
  async #addBlockTimes(times: Map<bigint, number>, logs: IndexedLog[], head: bigint): Promise<Map<bigint, Hex>> {
    for (const log of logs) if (log.blockTimestamp != null) times.set(log.blockNumber, Number(log.blockTimestamp));
    const missing = new Set([...logs.map((log) => log.blockNumber), head].filter((number) => !times.has(number)));
    const blocks = await Promise.all([...missing].map((blockNumber) => this.#source.block(blockNumber)));
    for (const block of blocks) times.set(block.number, Number(block.timestamp));
    return new Map(blocks.map((block) => [block.number, block.hash]));
  }
}
