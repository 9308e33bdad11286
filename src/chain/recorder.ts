import type { Address, Hex } from "viem";
import type { Savepoint } from "./savepoint.ts";

/**
 * A log of a followed event as the index needs it: [block, block time, address, topics, data, log index, transaction].
 */
export type LogRecord = [number, number, Address, Hex[], Hex, number, Hex];

/**
 * What a recorded change did to the chain's index: its head after it ([number, hash, time]) and the followed logs of
 * the blocks it made.
 */
export interface Mined {
  head: [number, Hex, number];
  logs: LogRecord[];
}

/** A transaction as the simulator sent it (so sending it again gives the same hash). */
export interface SentFields {
  from: Address;
  to: Address;
  data: Hex;
  value?: Hex;
  gas: Hex;
}

/** One block of the simulator's writes, as mined: its time, its transactions in the block's order, what it did. */
export interface BlockEntry {
  t: "block";
  chainId: number;
  at: number;
  txs: SentFields[];
  mined: Mined;
}

/**
 * A transaction the simulator sent that waits in the pool (automine off from outside), or one mined alone at `at` (the
 * journal's first format).
 */
export interface TxEntry extends SentFields {
  t: "tx";
  chainId: number;
  /** Time of the block it was mined in (the first format only). */
  at?: number;
  /**
   * While it waits in the pool: the signed transaction, replayed as sent (same hash) and left there for the block that
   * mined it.
   */
  raw?: Hex;
}

/** A state-changing JSON-RPC call from outside, as made. */
export interface RpcEntry {
  t: "rpc";
  chainId: number;
  method: string;
  params: unknown[];
  /** Time of the first block it mined, if it mined one. */
  at?: number;
  /** What it did to the index (absent on a call recorded before it ran, evm_revert, and in the first format). */
  mined?: Mined;
}

export type ChainEntry = BlockEntry | TxEntry | RpcEntry;

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

/**
 * Where a chain's changes go once the world is loaded (the journal of `--state`). Every change
 * is one step, run one at a time in the journal's order (the chain's); a writer is answered only
 * once its step is durable.
 */
export interface ChainRecorder {
  /**
   * Runs `work`, which records what it did; refused (StorageFull) before anything runs when the
   * journal cannot be written, and taken back (`savepoint`) when its record cannot be made durable.
   */
  step<T>(work: (record: (entry: ChainEntry) => void) => Promise<T>, savepoint?: () => Promise<Savepoint>): Promise<T>;
  /**
   * `step`, answered once recorded (its turn over): `durable` resolves once it is on disk, or rejects once it was taken
   * back.
   */
  stepAhead<T>(
    work: (record: (entry: ChainEntry) => void) => Promise<T>,
    savepoint?: () => Promise<Savepoint>,
  ): Promise<{ value: T; durable: Promise<void> }>;
  /** Makes `entry` durable, then runs `work`: a change nothing could take back (evm_revert). */
  first<T>(entry: ChainEntry, work: () => Promise<T>): Promise<T>;
}
