import type { Savepoint } from "../chain/savepoint.ts";
import type { JournalFile } from "./journal-file.ts";

interface Written {
  /** Where its lines end. */
  end: number;
  point: Savepoint | undefined;
  resolve(): void;
  reject(error: unknown): void;
}

/**
 * The changes written to the journal but not on disk yet, in order, each with where to take it
 * back to. One sync at a time covers everything written before it began (a group commit); the
 * changes it covers are durable, and if it fails, every change not durable is taken back, the
 * last first, and the journal cut before them.
 */
export class Undurable {
  readonly #file: JournalFile;
  /** Tells the journal the disk failed a sync; answers the 507 to give, once every change not durable is taken back. */
  readonly #failed: (error: unknown) => unknown;
  #written: Written[] = [];
  #syncing = false;

  constructor(file: JournalFile, failed: (error: unknown) => unknown) {
    this.#file = file;
    this.#failed = failed;
  }

  /** A change whose lines end at the journal's end: durable once a sync covers it. */
  add(point: Savepoint | undefined): Promise<void> {
    let settle!: Pick<Written, "resolve" | "reject">;
    const durable = new Promise<void>((resolve, reject) => (settle = { resolve, reject }));
    durable.catch(() => undefined);
    this.#written.push({ end: this.#file.size, point, ...settle });
    void this.#syncAll();
    return durable;
  }

  /**
   * `sync`, for a caller whose turn it is: a failed sync takes every change not durable back here, before the 507 is
   * thrown.
   */
  async syncHeld(): Promise<void> {
    try {
      await this.#file.sync();
    } catch (error) {
      const refusal = this.#failed(error);
      await this.takeBack(refusal);
      throw refusal;
    }
    this.#settle();
  }

  /**
   * After a failed sync: every change not durable taken back (the last first), its writer told `error`, the journal cut
   * to what is on disk.
   */
  async takeBack(error: unknown): Promise<void> {
    const lost = this.#written.splice(0);
    try {
      this.#file.cutTo(this.#file.synced);
    } catch {
      // Cut again before the next write (the file keeps its tail marked).
    }
    for (const written of lost.reverse()) {
      try {
        await written.point?.rollback();
      } finally {
        written.point?.release();
        written.reject(error);
      }
    }
  }

  async #syncAll(): Promise<void> {
    if (this.#syncing) return;
    this.#syncing = true;
    try {
      while (this.#written.length > 0) {
        try {
          await this.#file.sync();
        } catch (error) {
          this.#failed(error);
          return;
        }
        this.#settle();
      }
    } finally {
      this.#syncing = false;
    }
  }

  #settle(): void {
    while (this.#written[0] && this.#written[0].end <= this.#file.synced) {
      const written = this.#written.shift()!;
      written.point?.release();
      written.resolve();
    }
  }
}
