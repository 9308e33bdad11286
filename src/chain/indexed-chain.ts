import type { Hex } from "viem";
import type { ChainIndexer } from "../indexer/indexer.ts";
import type { ReadModels } from "../indexer/models.ts";
import type { IndexObserver } from "../indexer/observer.ts";
import { ChainGate } from "./chain-gate.ts";

/**
 * The index side of a chain (what SimChain adds the chain to): reads that cannot skip the sync and wait for a hold to
 * end, checkpoints to come back to, the observer, whether the index follows the chain. Nothing outside chain/ reaches
 * the index but through these.
 */
export class IndexedChain {
  protected indexer: ChainIndexer;
  protected readonly gate = new ChainGate();

  constructor(indexer: ChainIndexer) {
    this.indexer = indexer;
  }

  /** The read models, once the index has caught up with the chain: the one way to read them. */
  async read(): Promise<ReadModels> {
    await this.sync();
    return this.indexer.models;
  }

  /** Catch the index up with the chain, if anything may have changed it (once another caller's hold has ended). */
  async sync(): Promise<void> {
    await this.gate.open();
    return this.indexer.sync();
  }

  /** Blocks may have been mined by others (a node polled, a collection looked for at the head). */
  noticeMoved(): void {
    this.indexer.markStale();
  }

  /** Blocks the index holds may have been replaced (a node others write to may have gone back). */
  noticeRewritten(): void {
    this.indexer.markRewritten();
  }

  /** Remembers the models as of the head, to come back to if the chain does; answers a mark for `forgetCheckpoints`. */
  async checkpoint(): Promise<number> {
    const before = this.indexer.checkpointCount;
    await this.indexer.checkpoint();
    return before;
  }

  /** Forgets the checkpoints taken since `mark` (a savepoint no longer needed). */
  forgetCheckpoints(mark: number): void {
    this.indexer.dropCheckpoints(mark);
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
}
