import { closeSync, fdatasync, fsyncSync, ftruncateSync, mkdirSync, openSync, readFileSync, writeSync } from "node:fs";
import { join } from "node:path";
import type { ChainRecorder } from "../chain/recorder.ts";
import type { JournalEntry } from "./entries.ts";

export const JOURNAL_FILE = "journal.jsonl";

/** What was read back from a journal: its entries, and a warning if a torn last line was dropped. */
export interface JournalContents {
  entries: JournalEntry[];
  warning?: string;
}

export class JournalError extends Error {
  override name = "JournalError";
}

/**
 * The durable record of `--state <dir>`: one JSON line per change, on disk before the change is
 * answered (`flush()`, a group commit: one sync for every write waiting on it). Writes that
 * change a chain run one at a time (`exclusive`), so the order of lines is the order things happened.
 */
export class Journal implements ChainRecorder {
  readonly path: string;
  readonly #header: JournalEntry;
  #fd: number;
  #size: number;
  #queue: Promise<unknown> = Promise.resolve();
  #dirty = false;
  #syncing: Promise<void> | undefined;

  private constructor(path: string, fd: number, size: number, header: JournalEntry) {
    this.path = path;
    this.#fd = fd;
    this.#size = size;
    this.#header = header;
  }

  /**
   * Opens (or creates) the journal in `dir` and reads what it holds; a torn last line is cut off.
   * A new or cleared journal starts with `header` (which world it belongs to).
   */
  static open(dir: string, header: JournalEntry): { journal: Journal } & JournalContents {
    mkdirSync(dir, { recursive: true });
    const path = join(dir, JOURNAL_FILE);
    const fd = openSync(path, "a+");
    const { entries, warning, goodBytes } = parse(readFileSync(path), path);
    if (warning) {
      ftruncateSync(fd, goodBytes);
      fsyncSync(fd);
    }
    const journal = new Journal(path, fd, goodBytes, header);
    if (entries.length === 0) {
      journal.append(header);
      fsyncSync(fd);
    }
    return { journal, entries, ...(warning ? { warning } : {}) };
  }

  exclusive<T>(work: () => Promise<T>): Promise<T> {
    const run = this.#queue.then(work);
    this.#queue = run.catch(() => undefined);
    return run;
  }

  /** Appends one entry (durable once a `flush()` after it resolves). */
  append(entry: JournalEntry): void {
    const line = Buffer.from(`${JSON.stringify(entry)}\n`);
    writeSync(this.#fd, line);
    this.#size += line.length;
    this.#dirty = true;
  }

  /** Everything appended so far is on disk: joins a sync under way, or starts one if there is more to sync. */
  flush(): Promise<void> {
    if (!this.#dirty) return this.#syncing ?? Promise.resolve();
    if (this.#syncing) return this.#syncing.then(() => this.flush());
    this.#dirty = false;
    const syncing = new Promise<void>((resolve, reject) =>
      fdatasync(this.#fd, (error) => (error ? reject(error) : resolve())),
    );
    this.#syncing = syncing.finally(() => (this.#syncing = undefined));
    return this.#syncing;
  }

  /** Forgets everything but which world it belongs to (a reset back to the world as loaded). */
  clear(): void {
    ftruncateSync(this.#fd, 0);
    this.#size = 0;
    this.append(this.#header);
    fsyncSync(this.#fd);
  }

  get bytes(): number {
    return this.#size;
  }

  /** Syncs what is left and closes the file. */
  close(): void {
    if (this.#dirty) fsyncSync(this.#fd);
    closeSync(this.#fd);
  }
}

function parse(bytes: Buffer, path: string): JournalContents & { goodBytes: number } {
  const entries: JournalEntry[] = [];
  let offset = 0;
  while (offset < bytes.length) {
    const end = bytes.indexOf(0x0a, offset);
    const line = bytes.subarray(offset, end === -1 ? bytes.length : end).toString("utf8");
    const entry = end === -1 ? undefined : parseLine(line);
    if (!entry) {
      const isLast = end === -1 || end === bytes.length - 1;
      if (!isLast)
        throw new JournalError(
          `${path}: line ${entries.length + 1} is not a journal entry, and more follow it; the journal is damaged`,
        );
      return {
        entries,
        goodBytes: offset,
        warning: `${path}: the last entry was cut off mid-write (a crash); it was never acknowledged and is dropped`,
      };
    }
    entries.push(entry);
    offset = end + 1;
  }
  return { entries, goodBytes: offset };
}

function parseLine(line: string): JournalEntry | undefined {
  try {
    const entry = JSON.parse(line) as JournalEntry;
    return typeof entry === "object" && entry !== null && typeof entry.t === "string" ? entry : undefined;
  } catch {
    return undefined;
  }
}
