import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { nodeDisk, type Disk } from "../../src/journal/disk.ts";

// A disk that loses what was not synced, as SQLite's crash-test file system and Jepsen's LazyFS do: every change goes
// to the real files (so reads see it), and what a sync made durable is kept apart. A power cut, at the disk's n-th
// operation (before it runs), freezes what a restart would find: each file as of its last sync, with a random part
// of what was appended since (a torn append); each name as of its folder's last sync, or (a coin's throw) as it is
// now: a file created, renamed or removed since may or may not be so. Folders themselves are not followed (the
// state directory exists before the test begins).

type Op = "open" | "write" | "truncate" | "fsync" | "fdatasync" | "close" | "rename" | "unlink" | "syncDir";

interface Inode {
  /** Its bytes as of its last sync. */
  durable: Buffer;
}

/** A fault to answer an operation with, on the files `on` names. */
interface Fault {
  op: Op;
  code: string;
  on: (path: string) => boolean;
}

/** The files a restart finds after the cut, by path. */
export type CutImage = Map<string, Buffer>;

export class PowerCutDisk implements Disk {
  readonly #random: () => number;
  readonly #open = new Map<number, { path: string; inode: Inode }>();
  /** Names as they are now, and as of their folder's last sync. */
  readonly #names = new Map<string, Inode>();
  readonly #durableNames = new Map<string, Inode>();
  #ops = 0;
  #cutBefore = Infinity;
  #faults: Fault[] = [];
  /** What the cut left, and the operation it came before. */
  cut: { image: CutImage; before: string; ran: Record<string, number> } | undefined;
  /** The operations a fault refused. */
  readonly refused: string[] = [];
  /** Operations run, by kind (what a property's runs say they reached). */
  readonly counts = new Map<string, number>();

  constructor(random: () => number) {
    this.#random = random;
  }

  /** The power goes at the `n`-th operation from now, before it runs. */
  cutAt(n: number): void {
    this.#cutBefore = this.#ops + n;
  }

  /** The power goes now (if it has not already). */
  cutNow(): void {
    this.cut ??= { image: this.#image(), before: "nothing (cut after the load)", ran: Object.fromEntries(this.counts) };
  }

  /** `op` on the files `on` names fails with `code` (ENOSPC, EIO) until `heal`. */
  fail(op: Op, code: string, on: (path: string) => boolean = () => true): void {
    this.#faults.push({ op, code, on });
  }

  heal(): void {
    this.#faults = [];
  }

  open(path: string, flags: string | number, mode?: number): number {
    const at = this.#step("open", path);
    const existed = existsSync(at);
    const fd = nodeDisk.open(at, flags, mode);
    let inode = this.#names.get(at);
    if (!inode) {
      // A file there before this disk was used counts as durable; one made now is not, until it and its folder sync.
      inode = { durable: existed ? readFileSync(at) : Buffer.alloc(0) };
      this.#names.set(at, inode);
      if (existed) this.#durableNames.set(at, inode);
    }
    this.#open.set(fd, { path: at, inode });
    return fd;
  }

  write(fd: number, bytes: Buffer, offset: number, length: number, position?: number): number {
    this.#step("write", this.#pathOf(fd));
    return nodeDisk.write(fd, bytes, offset, length, position);
  }

  truncate(fd: number, length: number): void {
    this.#step("truncate", this.#pathOf(fd));
    nodeDisk.truncate(fd, length);
  }

  fsync(fd: number): void {
    this.#step("fsync", this.#pathOf(fd));
    const { path, inode } = this.#open.get(fd)!;
    inode.durable = readFileSync(path);
  }

  /** Covers what was written when it began, once it ends (unless the power went meanwhile). */
  async fdatasync(fd: number): Promise<void> {
    this.#step("fdatasync", this.#pathOf(fd));
    const { path, inode } = this.#open.get(fd)!;
    const written = readFileSync(path);
    await new Promise((resolve) => setImmediate(resolve));
    if (!this.cut) inode.durable = written;
  }

  close(fd: number): void {
    this.#step("close", this.#pathOf(fd));
    this.#open.delete(fd);
    nodeDisk.close(fd);
  }

  rename(from: string, to: string): void {
    const at = this.#step("rename", to);
    nodeDisk.rename(resolve(from), at);
    const inode = this.#names.get(resolve(from));
    this.#names.delete(resolve(from));
    if (inode) this.#names.set(at, inode);
  }

  unlink(path: string, force?: boolean): void {
    const at = this.#step("unlink", path);
    nodeDisk.unlink(at, force);
    this.#names.delete(at);
  }

  mkdir(path: string, recursive?: boolean): string | undefined {
    return nodeDisk.mkdir(path, recursive);
  }

  rmdir(path: string): void {
    nodeDisk.rmdir(path);
  }

  syncDir(dir: string): void {
    const at = this.#step("syncDir", dir);
    for (const path of new Set([...this.#names.keys(), ...this.#durableNames.keys()])) {
      if (dirname(path) !== at) continue;
      const inode = this.#names.get(path);
      if (inode) this.#durableNames.set(path, inode);
      else this.#durableNames.delete(path);
    }
  }

  /** Counts the operation, cuts the power before it if its turn came, and fails it as a fault says. */
  #step(op: Op, path: string): string {
    const at = resolve(path);
    this.#ops += 1;
    if (this.#ops === this.#cutBefore && !this.cut)
      this.cut = { image: this.#image(), before: `${op} ${at}`, ran: Object.fromEntries(this.counts) };
    this.counts.set(op, (this.counts.get(op) ?? 0) + 1);
    const fault = this.#faults.find((one) => one.op === op && one.on(at));
    if (fault) this.refused.push(`${fault.code} ${op} ${at}`);
    if (fault)
      throw Object.assign(new Error(`${fault.code}: ${op} failed (a fault of the test's disk), '${at}'`), {
        code: fault.code,
        syscall: op,
        path: at,
      });
    return at;
  }

  #pathOf(fd: number): string {
    return this.#open.get(fd)?.path ?? `fd ${fd}`;
  }

  /** What a restart would find now. */
  #image(): CutImage {
    const image: CutImage = new Map();
    for (const path of new Set([...this.#names.keys(), ...this.#durableNames.keys()])) {
      const now = this.#names.get(path);
      const synced = this.#durableNames.get(path);
      const inode = now === synced || this.#random() < 0.5 ? synced : now;
      if (!inode) continue;
      let bytes = inode.durable;
      // Appended since its last sync: some of it may have reached the disk (the last piece torn).
      const current = now === inode ? readFileSync(path) : bytes;
      if (current.length > bytes.length && current.subarray(0, bytes.length).equals(bytes))
        bytes = current.subarray(0, bytes.length + Math.floor(this.#random() * (current.length - bytes.length + 1)));
      image.set(path, Buffer.from(bytes));
    }
    return image;
  }
}

/** Writes what the cut left of `from` into the folder `to` (the state directory a restart opens). */
export function restoreCut(image: CutImage, from: string, to: string): string[] {
  mkdirSync(to, { recursive: true });
  const names: string[] = [];
  for (const [path, bytes] of image) {
    if (dirname(path) !== resolve(from)) continue;
    const name = path.slice(resolve(from).length + 1);
    writeFileSync(join(to, name), bytes);
    names.push(name);
  }
  return names.sort();
}
