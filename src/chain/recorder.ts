import type { Hex } from "viem";
import type { RequestProvider, SendableTx, Sent } from "./block-batcher.ts";
import type { Savepoint } from "./savepoint.ts";

/** What a disk refusing writes means to do about it, by its errno code. */
const REMEDY: Record<string, string> = {
  ENOSPC: "free space there",
  EDQUOT: "free space there or raise the quota",
  EFBIG: "the journal reached the largest file the filesystem takes; move --state to another filesystem",
  EROFS: "the filesystem is read-only; remount it read-write",
  EIO: "the disk reported an I/O error; check it",
};

/**
 * A change refused because its record (the journal in `dir`) could not be made durable: its disk is
 * full, read-only or failing. Nothing of the change was kept or acknowledged; the HTTP layer answers 507.
 */
export class StorageFull extends Error {
  override name = "StorageFull";
  readonly dir: string;
  /** The system's error code (ENOSPC, EDQUOT, EROFS, EIO, EFBIG). */
  readonly reason: string;
  /** What the system said, and what to do. */
  readonly detail: string;

  constructor(dir: string, cause: NodeJS.ErrnoException) {
    const reason = cause.code ?? "EIO";
    super(`The journal in ${dir} cannot be written (${reason})`);
    this.dir = dir;
    this.reason = reason;
    this.detail =
      `${cause.message}: ${REMEDY[reason] ?? "check the disk"}; ` +
      "writes answer 507 until the journal can be written again, reads still answer";
  }
}

/** A chain as its recorder sees it. */
export interface RecordedChain {
  chainId: number;
  /** The chain's own provider, to ask what a change did (its block, its logs): nothing it is asked is recorded. */
  provider: RequestProvider;
  /** Where a change is taken back to if its record cannot be made durable (none: a node we did not start keeps it). */
  savepoint: (() => Promise<Savepoint>) | undefined;
}

/**
 * What records a chain's changes once the world is loaded (the journal of `--state`). The chain tells it each change
 * as it makes it, one at a time in the chain's order, and answers a writer only once its change is durable; what the
 * record holds is the recorder's business.
 */
export interface ChainRecorder {
  /**
   * A block of the simulator's writes, made by `make` (which answers what reached the chain). Answers once recorded
   * (refused, StorageFull, before anything is sent if it cannot be); `durable` resolves once it is on disk, or rejects
   * once it was taken back.
   */
  block(chain: RecordedChain, make: () => Promise<Sent[]>): Promise<{ durable: Promise<void> }>;
  /** A state-changing JSON-RPC call from outside, made by `call`: answered once durable. */
  call<T>(chain: RecordedChain, method: string, params: unknown[], call: () => Promise<T>): Promise<T>;
  /** A transaction sent alone to a node we did not start (`send`, as `sendable`): answered once durable. */
  sent(chain: RecordedChain, sendable: SendableTx, send: () => Promise<Hex>): Promise<Hex>;
}
