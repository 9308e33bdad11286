import type { JournalFile } from "./journal-file.ts";
import { apiError, ERRORS, isApiError } from "../core/errors.ts";

/**
 * What a write or sync of the journal can fail with when its storage cannot take it (the disk, not the simulator), and
 * what to do about it, by its errno code.
 */
const REMEDY: Record<string, string> = {
  ENOSPC: "free space there",
  EDQUOT: "free space there or raise the quota",
  EFBIG: "the journal reached the largest file the filesystem takes; move --state to another filesystem",
  EROFS: "the filesystem is read-only; remount it read-write",
  EIO: "the disk reported an I/O error; check it",
};

/** A failure of the disk under the journal (no space, quota, read-only, I/O error), as opposed to a bug. */
export function isStorageError(error: unknown): error is NodeJS.ErrnoException {
  const code = (error as { code?: unknown })?.code;
  return typeof code === "string" && Object.hasOwn(REMEDY, code);
}

/**
 * A change refused because its record (the journal in `dir`) could not be made durable: its disk is full, read-only or
 * failing. Nothing of the change was kept or acknowledged (507).
 */
export function storageFull(dir: string, cause: NodeJS.ErrnoException) {
  const code = cause.code ?? "EIO";
  const detail =
    `${cause.message}: ${REMEDY[code] ?? "check the disk"}; ` +
    "writes answer 507 until the journal can be written again, reads still answer";
  return apiError(ERRORS.STORAGE_FULL, { dir, code }, { errors: [detail] });
}

/**
 * While the disk refuses writes, how often it is asked again on its own (a write asks at once, at most this often too).
 */
const PROBE_EVERY_MS = 1_000;
const PROBE_AT_MOST_EVERY_MS = 100;

/**
 * Whether the journal's disk takes writes: a failure of the disk (no space, quota, read-only, I/O
 * error) makes it refuse every write with 507 until a probe finds it takes writes again, which is
 * asked every second on its own, and at most every 100 ms by a write.
 */
export class DiskState {
  readonly #dir: string;
  readonly #file: JournalFile;
  readonly #told: (line: string) => void;
  #failure: { error: NodeJS.ErrnoException; since: Date } | undefined;
  #probedAt = 0;
  #probing: NodeJS.Timeout | undefined;

  constructor(dir: string, file: JournalFile, told: (line: string) => void) {
    this.#dir = dir;
    this.#file = file;
    this.#told = told;
  }

  get writability() {
    const failure = this.#failure;
    if (!failure) return { writable: true };
    return { writable: false, since: failure.since.toISOString(), reason: failure.error.message };
  }

  /**
   * A failure of the disk becomes the journal's state (and the caller's 507); anything else is a bug, answered as it
   * is.
   */
  refusal(error: unknown): unknown {
    if (isApiError(error, ERRORS.STORAGE_FULL) || !isStorageError(error)) return error;
    if (!this.#failure) {
      this.#failure = { error, since: new Date() };
      this.#told(
        `The journal in ${this.#dir} cannot be written (${error.message}); ` +
          "writes answer 507 STORAGE_FULL until it can, reads still answer",
      );
      this.#probing = setInterval(() => this.#probe(), PROBE_EVERY_MS).unref();
    }
    return storageFull(this.#dir, error);
  }

  /** Throws the 507 while the disk still refuses writes. */
  ensureWritable(): void {
    if (!this.#failure) return;
    if (Date.now() - this.#probedAt >= PROBE_AT_MOST_EVERY_MS) this.#probe();
    if (this.#failure) throw storageFull(this.#dir, this.#failure.error);
  }

  close(): void {
    clearInterval(this.#probing);
  }

  #probe(): void {
    this.#probedAt = Date.now();
    if (!this.#file.probe()) return;
    this.#failure = undefined;
    clearInterval(this.#probing);
    this.#told(`The journal in ${this.#dir} can be written again: writes are taken again`);
  }
}
