import { randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import { join } from "node:path";
import type { Savepoint } from "../chain/savepoint.ts";
import type { JournalEntry, WorldEntry } from "./entries.ts";
import { makeDir, nodeDisk, type Disk } from "./disk.ts";
import { JournalFile } from "./journal-file.ts";
import { readEntries, readEntryPieces, scanJournal } from "./journal-reader.ts";
import { checkHeader, JOURNAL_FORMAT, journalRefused } from "./parse.ts";
import { Undurable } from "./undurable.ts";
import { DiskState, isStorageError } from "./disk-state.ts";
import { ERRORS, isApiError } from "../core/errors.ts";

export { journalRefused, JOURNAL_FORMAT };
export const JOURNAL_FILE = "journal.jsonl";

type Work<T> = (record: (entry: JournalEntry) => void) => Promise<T>;

/**
 * The durable record of `--state <dir>`: one JSON line per change, on disk before the change is
 * answered. Changes take turns (`exclusive`), so the order of lines is the order things happened;
 * a change's turn ends once it is written, and one sync makes every change written meanwhile durable
 * (a group commit). A change that cannot be made durable is refused before it runs (507, STORAGE_FULL)
 * or taken back, with every change after it: the running world and the journal never disagree.
 * Writes resume on their own once the disk takes them again.
 */
export class Journal {
  readonly dir: string;
  /** What its files are written through (the checkpoints' too). */
  readonly disk: Disk;
  readonly #file: JournalFile;
  readonly #undurable: Undurable;
  #header: WorldEntry;
  #headerBytes = 0;
  #queue: Promise<unknown> = Promise.resolve();
  readonly #disk: DiskState;

  private constructor(dir: string, disk: Disk, file: JournalFile, header: WorldEntry, told: (line: string) => void) {
    this.dir = dir;
    this.disk = disk;
    this.#file = file;
    this.#header = header;
    this.#disk = new DiskState(dir, file, told);
    this.#undurable = new Undurable(file, (error) => this.#syncFailed(error));
  }

  /**
   * Opens (or creates) the journal in `dir` for the world `worldId`; a torn last line is cut off.
   * A journal of another world, or from a newer simulator, is refused. Its lines are read when
   * asked for (`read`, `pieces`): a long journal is not read whole before anything can answer.
   */
  static open(
    dir: string,
    worldId: string,
    told: (line: string) => void = () => {},
    disk: Disk = nodeDisk,
  ): { journal: Journal; warning?: string } {
    makeDir(disk, dir);
    const path = join(dir, JOURNAL_FILE);
    const created = !existsSync(path);
    const scanned = scanJournal(path);
    const header = scanned.header ? checkHeader(scanned.header, worldId, path) : newHeader(worldId);
    let file: JournalFile | undefined;
    try {
      file = JournalFile.open(disk, path, scanned.header ? scanned.goodBytes : 0, created);
      const journal = new Journal(dir, disk, file, header, told);
      journal.#headerBytes = scanned.headerBytes;
      if (!scanned.header) journal.#startGeneration(header);
      return { journal, warning: scanned.warning };
    } catch (error) {
      file?.close();
      // A full or read-only disk at start: told as what it is, not a stack.
      if (!isStorageError(error)) throw error;
      const why = `the journal in ${dir} cannot be written (${error.message})`;
      throw journalRefused(`${why}: free space there, or give another --state directory`);
    }
  }

  /** The entries from byte `from` (after the first line, by default) to the end, read now. */
  read(from = this.#headerBytes): JournalEntry[] {
    return readEntries(this.path, from, this.#file.size, from === this.#headerBytes ? { line: 2 } : { byte: from });
  }

  /** Every entry (after the first line), a piece at a time (a replay of a long journal), up to the end as it is now. */
  pieces(): AsyncGenerator<JournalEntry[]> {
    return readEntryPieces(this.path, this.#headerBytes, this.#file.size, 2);
  }

  /** Where the first line ends (the entries begin). */
  get headerBytes(): number {
    return this.#headerBytes;
  }

  /** How much of the journal is known to be on disk. */
  get syncedBytes(): number {
    return this.#file.synced;
  }

  get path(): string {
    return this.#file.path;
  }

  get header(): WorldEntry {
    return this.#header;
  }

  get bytes(): number {
    return this.#file.size;
  }

  /** Whether the journal takes writes, and if not, since when and why. */
  get writability() {
    return this.#disk.writability;
  }

  /** Runs `work` alone, between every other change (the journal's order). */
  exclusive<T>(work: () => Promise<T>): Promise<T> {
    const run = this.#queue.then(work);
    this.#queue = run.catch(() => undefined);
    return run;
  }

  async step<T>(work: Work<T>, savepoint?: () => Promise<Savepoint>): Promise<T> {
    const { value, durable } = await this.stepAhead(work, savepoint);
    await durable;
    return value;
  }

  /**
   * `step`, answered once its turn is over (recorded): `durable` resolves once it is on disk, or rejects (507) once it
   * was taken back.
   */
  stepAhead<T>(work: Work<T>, savepoint?: () => Promise<Savepoint>): Promise<{ value: T; durable: Promise<void> }> {
    return this.exclusive(() => this.#record(work, savepoint));
  }

  /** `step`, for a caller already running alone (`exclusive`). */
  async stepHeld<T>(work: Work<T>, savepoint?: () => Promise<Savepoint>): Promise<T> {
    const { value } = await this.#record(work, savepoint);
    await this.#undurable.syncHeld();
    return value;
  }

  /**
   * For a caller running alone: `entry()` (which may refuse, before anything is written) made durable, before the
   * change it names; or after a change it can still take back (STORAGE_FULL: the caller takes the change back).
   */
  async recordFirstHeld<E extends JournalEntry>(entry: () => E): Promise<E> {
    this.#disk.ensureWritable();
    const made = entry();
    await this.stepHeld(async (record) => record(made));
    return made;
  }

  /** Refused (STORAGE_FULL) while the journal cannot be written: a change checks before it starts. */
  ensureWritable(): void {
    this.#disk.ensureWritable();
  }

  /** For a caller running alone: every change written so far, durable (or taken back, and the 507 thrown). */
  async durableHeld(): Promise<void> {
    await this.#undurable.syncHeld();
  }

  /**
   * Back to the world as loaded: a new generation of the journal, durable before `work` (which returns the chains to
   * it) runs.
   */
  async clearHeld<T>(work: () => Promise<T>): Promise<T> {
    this.#disk.ensureWritable();
    await this.#undurable.syncHeld();
    try {
      this.#file.cutTo(0);
      this.#startGeneration(newHeader(this.#header.id));
    } catch (error) {
      throw this.#disk.refusal(error);
    }
    return work();
  }

  close(): void {
    this.#disk.close();
    this.#file.close();
  }

  /**
   * Runs `work` in its turn: refused before anything runs if the journal cannot be written; its record written, its
   * sync begun.
   */
  async #record<T>(work: Work<T>, savepoint?: () => Promise<Savepoint>): Promise<{ value: T; durable: Promise<void> }> {
    this.#disk.ensureWritable();
    const point = await savepoint?.();
    const outcome = await work((entry) => this.#write(entry)).then(
      (value): { value: T } | { error: unknown } => ({ value }),
      (error: unknown) => ({ error }),
    );
    // A line the disk refused was cut by the file; the lines before it stay (their changes are taken back, as every
    // writer is told).
    if ("error" in outcome && isApiError(outcome.error, ERRORS.STORAGE_FULL)) {
      await point?.rollback();
      point?.release();
      throw outcome.error;
    }
    const durable = this.#undurable.add(point);
    if ("error" in outcome) {
      // A change that failed once recorded (a transaction mined though it reverted) is durable before its error is
      // told.
      await this.#undurable.syncHeld();
      throw outcome.error;
    }
    return { value: outcome.value, durable };
  }

  #startGeneration(header: WorldEntry): void {
    const line = Buffer.from(`${JSON.stringify(header)}\n`);
    this.#file.append(line);
    this.#file.syncNow();
    this.#header = header;
    this.#headerBytes = line.length;
  }

  #write(entry: JournalEntry): void {
    this.#disk.ensureWritable();
    try {
      this.#file.append(Buffer.from(`${JSON.stringify(entry)}\n`));
    } catch (error) {
      throw this.#disk.refusal(error);
    }
  }

  /**
   * A sync failed: nothing written since the last one is known to be on disk, so every change not durable is taken
   * back, in its turn.
   */
  #syncFailed(error: unknown): unknown {
    const failure = isStorageError(error)
      ? error
      : Object.assign(new Error(`the sync failed: ${(error as Error)?.message ?? String(error)}`), { code: "EIO" });
    const refusal = this.#disk.refusal(failure);
    void this.exclusive(() => this.#undurable.takeBack(refusal));
    return refusal;
  }
}

function newHeader(id: string): WorldEntry {
  return { t: "world", id, format: JOURNAL_FORMAT, generation: randomBytes(8).toString("hex") };
}
