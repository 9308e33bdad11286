import { randomBytes } from "node:crypto";
import { readFileSync, statSync } from "node:fs";
import { hostname } from "node:os";
import { join } from "node:path";
import { StartError, START_ERRORS } from "../core/errors.ts";
import { makeDir, nodeDisk, type Disk } from "./disk.ts";

export const LOCK_FILE = "lock";

/** Who holds a state directory: a process, on a machine, since when, and a token of that holding. */
export interface LockHolder {
  pid: number;
  host: string;
  since: string;
  token: string;
  /** The process's start time as the kernel counts it (Linux): a pid reused by another process is told apart. */
  started?: string;
}

/** Another simulator runs on the state directory (the CLI exits 2, naming it). */
function stateLocked(dir: string, holder: LockHolder): StartError {
  const here = holder.host === hostname();
  const unchecked = ` (a process on another machine cannot be checked: if it is gone, delete ${join(dir, LOCK_FILE)})`;
  return new StartError(
    START_ERRORS.STATE_LOCKED,
    `${dir} is in use by another simulator (pid ${holder.pid} ${here ? "on this machine" : `on ${holder.host}`}, ` +
      `since ${holder.since}): stop it, or give another --state directory${here ? "" : unchecked}`,
  );
}

/** How long a takeover may take before another process may take it over in turn (its taker died during it). */
const TAKEOVER_STALE_MS = 10_000;
/** How old a lock file that does not read may be before it counts as left by a starter that died writing it. */
const UNREADABLE_STALE_MS = 5_000;
const ATTEMPTS = 50;

/**
 * One writer per state directory: a lock file naming its holder, created atomically (O_EXCL) and
 * held for the life of the process. A lock whose holder is gone (a killed process: its pid no longer
 * runs, or runs another program) is taken over, one taker at a time (a takeover directory made
 * atomically), after checking it is still the lock found gone.
 */
export class StateLock {
  readonly #disk: Disk;
  readonly #path: string;
  readonly #holder: LockHolder;

  private constructor(disk: Disk, path: string, holder: LockHolder) {
    this.#disk = disk;
    this.#path = path;
    this.#holder = holder;
  }

  static take(dir: string, disk: Disk = nodeDisk): StateLock {
    makeDir(disk, dir);
    const path = join(dir, LOCK_FILE);
    const holder: LockHolder = {
      pid: process.pid,
      host: hostname(),
      since: new Date().toISOString(),
      token: randomBytes(8).toString("hex"),
      ...startedOf(process.pid),
    };
    for (let attempt = 0; attempt < ATTEMPTS; attempt += 1) {
      if (create(disk, path, holder)) {
        disk.syncDir(dir);
        return new StateLock(disk, path, holder);
      }
      const found = readHolder(path);
      if (found && isAlive(found)) throw stateLocked(dir, found);
      // A lock that does not read is being written by a starter right now, or was left half-written by one that died.
      if (found || ageOf(path) > UNREADABLE_STALE_MS) takeOver(disk, path, found);
      else pause(20);
    }
    throw new Error(`could not take ${path} (it keeps changing hands); try again`);
  }

  /** Lets go of the directory (if this process still holds it). */
  release(): void {
    if (readHolder(this.#path)?.token !== this.#holder.token) return;
    try {
      this.#disk.unlink(this.#path);
    } catch {
      // Gone already.
    }
  }
}

function create(disk: Disk, path: string, holder: LockHolder): boolean {
  let fd: number;
  try {
    fd = disk.open(path, "wx", 0o644);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST") return false;
    throw error;
  }
  try {
    const line = Buffer.from(`${JSON.stringify(holder)}\n`);
    for (let done = 0; done < line.length;) done += disk.write(fd, line, done, line.length - done);
    disk.fsync(fd);
  } finally {
    disk.close(fd);
  }
  return true;
}

function readHolder(path: string): LockHolder | undefined {
  try {
    const holder = JSON.parse(readFileSync(path, "utf8")) as LockHolder;
    return typeof holder.pid === "number" && typeof holder.token === "string" ? holder : undefined;
  } catch {
    return undefined;
  }
}

/** Whether the holder still runs; one on another machine cannot be checked, and counts as running. */
function isAlive(holder: LockHolder): boolean {
  if (holder.host !== hostname()) return true;
  try {
    process.kill(holder.pid, 0);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
  const started = startedOf(holder.pid).started;
  return holder.started === undefined || started === undefined || started === holder.started;
}

/**
 * Removes the lock of a holder that is gone (or one that does not read), if it is still that lock: one taker at a time.
 */
function takeOver(disk: Disk, path: string, gone: LockHolder | undefined): void {
  const guard = `${path}.takeover`;
  try {
    disk.mkdir(guard);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    if (ageOf(guard) > TAKEOVER_STALE_MS) disk.rmdir(guard);
    else pause(20);
    return;
  }
  try {
    const still = readHolder(path);
    if (gone ? still?.token === gone.token : !still && ageOf(path) > UNREADABLE_STALE_MS) disk.unlink(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
  } finally {
    disk.rmdir(guard);
  }
}

/** Milliseconds since `path` was last changed (0 if it is gone). */
function ageOf(path: string): number {
  const changed = statSync(path, { throwIfNoEntry: false })?.mtimeMs;
  return changed === undefined ? 0 : Date.now() - changed;
}

/** The kernel's start time of a process (field 22 of /proc/<pid>/stat), where there is one. */
function startedOf(pid: number): { started?: string } {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const started = stat.slice(stat.lastIndexOf(")") + 2).split(" ")[19];
    return started ? { started } : {};
  } catch {
    return {};
  }
}

function pause(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}
