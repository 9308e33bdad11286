import { constants } from "node:fs";
import { dirname } from "node:path";
import type { Disk } from "./disk.ts";

/** Bytes written past the end (then cut again) to learn whether the disk takes a write again. */
const PROBE = Buffer.alloc(4096, " ");

/**
 * An append-only file of lines, written at known offsets: `size` is where the next line goes and
 * `synced` how much is known to be on disk. A write that fails part way is cut off before
 * anything else is written, and a cut is itself synced, so a line taken back never reappears
 * after a crash.
 */
export class JournalFile {
  readonly path: string;
  readonly #disk: Disk;
  readonly #fd: number;
  #size: number;
  #synced: number;
  /** Bytes past `size` may be in the file (a write failed part way and could not be cut yet; a torn line at open). */
  #tail = true;
  #syncing: Promise<void> | undefined;

  private constructor(disk: Disk, path: string, fd: number, size: number) {
    this.#disk = disk;
    this.path = path;
    this.#fd = fd;
    this.#size = size;
    this.#synced = size;
  }

  /** Opens (creating it, and syncing its folder) the file; its whole lines end at `size`, what follows is cut off. */
  static open(disk: Disk, path: string, size: number, created: boolean): JournalFile {
    const fd = disk.open(path, constants.O_RDWR | constants.O_CREAT, 0o644);
    const file = new JournalFile(disk, path, fd, size);
    file.#cutTail();
    if (created) disk.syncDir(dirname(path));
    return file;
  }

  get size(): number {
    return this.#size;
  }

  get synced(): number {
    return this.#synced;
  }

  /** Writes `bytes` at the end; throws the system's error (nothing of them stays) if they cannot all be written. */
  append(bytes: Buffer): void {
    this.#cutTail();
    let done = 0;
    try {
      while (done < bytes.length)
        done += this.#disk.write(this.#fd, bytes, done, bytes.length - done, this.#size + done);
    } catch (error) {
      this.#tail = true;
      this.#tryCutTail();
      throw error;
    }
    this.#size += bytes.length;
  }

  /**
   * The first `end` bytes (everything appended so far, by default) are on disk: joins a sync under way, then starts one
   * if more is left (a group commit).
   */
  async sync(end = this.#size): Promise<void> {
    while (this.#synced < Math.min(end, this.#size)) {
      if (!this.#syncing) {
        const target = this.#size;
        this.#syncing = this.#disk
          .fdatasync(this.#fd)
          .then(() => void (this.#synced = Math.max(this.#synced, Math.min(target, this.#size))))
          .finally(() => (this.#syncing = undefined));
      }
      await this.#syncing;
    }
  }

  /** `sync`, at once (rare changes that must be durable before anything else happens: a new generation). */
  syncNow(): void {
    this.#disk.fsync(this.#fd);
    this.#synced = this.#size;
  }

  /**
   * Drops everything after `size` (lines taken back), durably; throws if it cannot (the cut is tried again before the
   * next write).
   */
  cutTo(size: number): void {
    if (size >= this.#size && !this.#tail) return;
    this.#size = Math.min(size, this.#size);
    this.#synced = Math.min(this.#synced, this.#size);
    this.#tail = true;
    this.#cutTail();
  }

  /** Whether the disk takes a write of a few kilobytes now (written past the end, then cut again). */
  probe(): boolean {
    try {
      this.#cutTail();
      this.#tail = true;
      for (let done = 0; done < PROBE.length;)
        done += this.#disk.write(this.#fd, PROBE, done, PROBE.length - done, this.#size + done);
      this.#cutTail();
      return true;
    } catch {
      return false;
    }
  }

  close(): void {
    this.#tryCutTail();
    try {
      if (this.#synced < this.#size) this.#disk.fsync(this.#fd);
    } finally {
      this.#disk.close(this.#fd);
    }
  }

  #cutTail(): void {
    if (!this.#tail) return;
    this.#disk.truncate(this.#fd, this.#size);
    this.#disk.fsync(this.#fd);
    this.#tail = false;
  }

  #tryCutTail(): void {
    try {
      this.#cutTail();
    } catch {
      // Left for the next write (or the next start, which drops a torn last line).
    }
  }
}
