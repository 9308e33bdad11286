import { Worker } from "node:worker_threads";
import { join } from "node:path";
import { loadAbis } from "../core/abi.ts";
import { indexedEventsAbi } from "../indexer/log-source.ts";
import { CHECKPOINT_FILE, encodeImage, ofJournal, openImage, readRest, writeImage, type ImageOf } from "./image.ts";
import { nodeDisk, type Disk } from "./disk.ts";
import { foldEntries, type FoldedState } from "./fold.ts";
import { readEntries } from "./journal-reader.ts";
import { JOURNAL_FILE, type Journal } from "./journal.ts";

/** The fold's thread: its source next to this module's, or the bundle's file beside the bundle's chunks. */
const WORKER = new URL(
  import.meta.url.endsWith(".ts") ? "./checkpoint-worker.ts" : "./checkpoint-worker.js",
  import.meta.url,
);

/**
 * How often the journal is looked at, and how much it grows past its checkpoint before it is folded
 * again: 4 MiB, or half the checkpoint's own size once that is larger (a fold reads and writes the
 * whole checkpoint, so folding as often as the journal grows by half of it keeps the work per line
 * of journal the same however large the world grew, as Redis rewrites its file once it doubled).
 */
const LOOK_EVERY_MS = 1_000;
/** After a checkpoint could not be written (a full disk), how long before it is tried again. */
const RETRY_AFTER_MS = 30_000;
export const FOLD_EVERY_BYTES = 4 * 1024 * 1024;

export interface CheckpointerOptions {
  journal: Journal;
  world: string;
  /**
   * The state the simulator answers from now, as a checkpoint holds it (taken in the journal's turn, the index caught
   * up).
   */
  live: () => Promise<FoldedState>;
  /** Told what went wrong (a checkpoint that could not be written; the journal keeps everything meanwhile). */
  told: (line: string) => void;
  /** Folds once the journal grew this much past the checkpoint (a given size; by default see FOLD_EVERY_BYTES). */
  everyBytes?: number;
  /** Told when each checkpoint is written (the tests' and the benchmark's eyes). */
  onWritten?: (checkpoint: { offset: number; at: string; by: "fold" | "simulator" }) => void;
}

/**
 * Keeps the journal's checkpoint close behind it, so a restart folds only the lines after it, as
 * Redis rewrites its append-only file or SQLite checkpoints its log: once the journal grew past
 * the checkpoint, a thread of its own folds those lines onto it and writes a new one, without
 * holding up answers or writes. A generation with no checkpoint yet (a first start, a reset), or
 * a line the fold cannot take (a rewind it has no copy for), gets one written from the state the
 * simulator holds, in the journal's turn. A crash at any moment leaves the last whole checkpoint.
 */
export class Checkpointer {
  readonly #options: CheckpointerOptions;
  #last: { generation: string; offset: number; at: string; bytes?: number } | undefined;
  #stuck = false;
  #running: Promise<void> | undefined;
  #worker: Worker | undefined;
  readonly #timer: NodeJS.Timeout;
  #closed = false;
  /** Not tried again before this time, after a failure; and what was told of the last one (told once). */
  #retryAt = 0;
  #lastFailure = "";

  constructor(options: CheckpointerOptions, from: ImageOf | undefined) {
    this.#options = options;
    this.#last = from && { generation: from.generation, offset: from.offset, at: from.at };
    this.#timer = setInterval(() => this.#look(), LOOK_EVERY_MS).unref();
    this.#look();
  }

  /** The checkpoint the journal is folded to (undefined: none yet for its generation). */
  get status(): { offset: number; at: string } | undefined {
    const last = this.#last;
    return last && last.generation === this.#options.journal.header.generation
      ? { offset: last.offset, at: last.at }
      : undefined;
  }

  /**
   * Stops: a fold under way is stopped (its partial file is left, the last whole checkpoint stays), and a
   * checkpoint of the journal's end is written here, so the next start folds nothing (answering from its
   * first part at once). A crash instead leaves the last checkpoint, and the lines after it to fold.
   */
  async close(): Promise<void> {
    clearInterval(this.#timer);
    await this.#worker?.terminate();
    await this.#running?.catch(() => undefined);
    const { journal } = this.#options;
    const behind = !this.status || this.status.offset < journal.bytes;
    if (behind && journal.writability.writable && !this.#closed)
      await this.#writeHere(journal.header.generation ?? "").catch((error: unknown) => this.#failed(error));
    this.#closed = true;
  }

  #look(): void {
    const { journal, everyBytes } = this.#options;
    if (this.#running || this.#closed || !journal.writability.writable || Date.now() < this.#retryAt) return;
    const generation = journal.header.generation ?? "";
    const current = this.#last?.generation === generation ? this.#last : undefined;
    const writeHere = !current || this.#stuck;
    const foldAfter = everyBytes ?? Math.max(FOLD_EVERY_BYTES, (current?.bytes ?? 0) / 2);
    if (!writeHere && journal.syncedBytes - current.offset < foldAfter) return;
    this.#running = (writeHere ? this.#writeHere(generation) : this.#fold(generation, journal.syncedBytes))
      .catch((error: unknown) => this.#failed(error))
      .finally(() => (this.#running = undefined));
  }

  /**
   * A checkpoint of the state the simulator holds, at the journal's end: written in the journal's turn, so nothing
   * moves meanwhile.
   */
  #writeHere(generation: string): Promise<void> {
    const { journal, world, live } = this.#options;
    return journal.exclusive(async () => {
      await journal.durableHeld();
      if (this.#closed || journal.header.generation !== generation) return;
      const offset = journal.bytes;
      const at = new Date().toISOString();
      const parts = encodeImage({ world, generation, offset, at }, await live());
      const bytes = writeImage(join(journal.dir, CHECKPOINT_FILE), parts, undefined, journal.disk);
      this.#written({ generation, offset, at, bytes }, "simulator");
      this.#stuck = false;
    });
  }

  /**
   * The fold, in a thread of its own; or here, on a disk other than the real one (a test's, which a thread cannot
   * share), with the same code.
   */
  #fold(generation: string, to: number): Promise<void> {
    const { journal } = this.#options;
    const job: FoldJob = { dir: journal.dir, world: this.#options.world, generation, to };
    const folded =
      journal.disk !== nodeDisk
        ? Promise.resolve().then(() => foldCheckpoint(job, journal.disk))
        : new Promise<FoldResult | undefined>((resolve, reject) => {
            const worker = (this.#worker = new Worker(WORKER, { workerData: job }));
            worker.once("message", resolve);
            worker.once("error", reject);
            worker.once("exit", () => {
              this.#worker = undefined;
              resolve(undefined);
            });
          });
    return folded.then((result) => {
      if (!result) return;
      if ("offset" in result) this.#written({ generation, ...result }, "fold");
      else if ("stuck" in result) this.#stuck = true;
      else throw new Error(result.failed);
    });
  }

  #failed(error: unknown): void {
    const message = String((error as Error)?.message ?? error);
    this.#retryAt = Date.now() + RETRY_AFTER_MS;
    if (message !== this.#lastFailure)
      this.#options.told(
        `The journal's checkpoint could not be written (${message}); tried again in ${RETRY_AFTER_MS / 1000} s, ` +
          "and the journal keeps everything meanwhile",
      );
    this.#lastFailure = message;
  }

  #written(last: { generation: string; offset: number; at: string; bytes: number }, by: "fold" | "simulator"): void {
    this.#lastFailure = "";
    this.#last = last;
    this.#options.onWritten?.({ offset: last.offset, at: last.at, by });
  }
}

/**
 * What the simulator asks of a fold: the journal of `dir`, up to byte `to` (all of it durable), onto its checkpoint.
 */
export interface FoldJob {
  dir: string;
  world: string;
  generation: string;
  to: number;
}

/**
 * What a fold answers: the checkpoint it wrote, or the line it could not fold (the simulator then writes one itself).
 */
export type FoldResult = { offset: number; at: string; bytes: number } | { stuck: string } | { failed: string };

/** Reads the checkpoint and the journal's lines after it, folds them on, and writes the new checkpoint through `disk`. */
export function foldCheckpoint({ dir, world, generation, to }: FoldJob, disk: Disk): FoldResult {
  try {
    const path = join(dir, CHECKPOINT_FILE);
    const opened = openImage(path, ofJournal({ world, generation, bytes: to }));
    if (!opened) throw new Error("there is no checkpoint of this journal to fold onto");
    const base = { ...opened.head, snapshots: readRest(opened) };
    const entries = readEntries(join(dir, JOURNAL_FILE), base.offset, to, { byte: base.offset });
    const folded = foldEntries(base, entries, indexedEventsAbi(loadAbis()));
    const at = new Date().toISOString();
    if ("notFoldable" in folded) return { stuck: folded.notFoldable };
    const image = encodeImage({ world, generation, offset: to, at }, folded);
    return { offset: to, at, bytes: writeImage(path, image, undefined, disk) };
  } catch (error) {
    return { failed: String((error as Error)?.message ?? error) };
  }
}
