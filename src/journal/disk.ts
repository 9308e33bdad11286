import {
  closeSync,
  fdatasync,
  fsyncSync,
  ftruncateSync,
  mkdirSync,
  openSync,
  renameSync,
  rmdirSync,
  rmSync,
  unlinkSync,
  writeSync,
} from "node:fs";
import { dirname, resolve } from "node:path";

/**
 * Every change `--state` makes to its disk, and every sync that makes one durable: the journal, its checkpoints and
 * the lock write through this and nothing else, so a test can give them a disk that keeps what was not synced apart
 * and loses it at a power cut. Reads go to the files directly (what a process reads back is what it wrote, synced or
 * not). Each method is the node:fs call of its name.
 */
export interface Disk {
  /** `flags` as node:fs takes them ("w", "wx", or O_ flags). */
  open(path: string, flags: string | number, mode?: number): number;
  /** Writes at `position` (at the file's offset, without one); answers how many bytes were written. */
  write(fd: number, bytes: Buffer, offset: number, length: number, position?: number): number;
  truncate(fd: number, length: number): void;
  /** The file's data and size on disk (fsync). */
  fsync(fd: number): void;
  /** The file's data on disk, without blocking (fdatasync): what a group commit waits for. */
  fdatasync(fd: number): Promise<void>;
  close(fd: number): void;
  rename(from: string, to: string): void;
  /** Removes a file; one that is not there is no error when `force`. */
  unlink(path: string, force?: boolean): void;
  /** Answers the first directory it created (mkdir -p), if any. */
  mkdir(path: string, recursive?: boolean): string | undefined;
  rmdir(path: string): void;
  /** The names in `dir` (created, renamed, removed) made durable: the directory itself synced. */
  syncDir(dir: string): void;
}

/** The disk itself. */
export const nodeDisk: Disk = {
  open: (path, flags, mode) => openSync(path, flags, mode),
  write: (fd, bytes, offset, length, position) => writeSync(fd, bytes, offset, length, position),
  truncate: (fd, length) => ftruncateSync(fd, length),
  fsync: (fd) => fsyncSync(fd),
  fdatasync: (fd) => new Promise((resolve, reject) => fdatasync(fd, (error) => (error ? reject(error) : resolve()))),
  close: (fd) => closeSync(fd),
  rename: (from, to) => renameSync(from, to),
  unlink: (path, force) => (force ? rmSync(path, { force: true }) : unlinkSync(path)),
  mkdir: (path, recursive) => mkdirSync(path, { recursive }),
  rmdir: (path) => rmdirSync(path),
  // Windows cannot open a directory to sync it, and keeps names durable on its own.
  syncDir: (dir) => {
    if (process.platform === "win32") return;
    const fd = openSync(dir, "r");
    try {
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
  },
};

/**
 * `dir` made where there is none, each folder made durable in its parent (a journal synced into a folder whose own name
 * was lost to a power cut is lost with it).
 */
export function makeDir(disk: Disk, dir: string): void {
  const made = disk.mkdir(dir, true);
  if (made === undefined) return;
  const first = resolve(made);
  for (let folder = resolve(dir); folder !== dirname(folder); folder = dirname(folder)) {
    disk.syncDir(dirname(folder));
    if (folder === first) return;
  }
}
