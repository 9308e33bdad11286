import { spawn, spawnSync } from "node:child_process";
import { once } from "node:events";
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { hostname, tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { LOCK_FILE, StateLock } from "../../src/journal/lock.ts";
import { START_ERRORS } from "../../src/core/errors.ts";
import { until } from "../eventually.ts";
import { killSimulatorProcesses, startSimulatorProcess } from "../processes.ts";
import { demoWithState } from "./mints.ts";

// One simulator per state directory: the lock is held for the life of the process, a second
// process is refused (exit 2, naming the holder), and a lock left by a process that is gone is taken over.

afterAll(killSimulatorProcesses);

const stateDir = () => mkdtempSync(join(tmpdir(), "nft-sim-lock-"));
/** The pid of a process that has exited (and is not running any more). */
function deadPid(): number {
  const { pid } = spawnSync(process.execPath, ["-e", "0"]);
  return pid!;
}
const lockOf = (dir: string) => JSON.parse(readFileSync(join(dir, LOCK_FILE), "utf8"));

describe("the lock of a state directory", () => {
  it("is refused to a second taker while held, naming the holder, and free again once released", () => {
    const dir = stateDir();
    const lock = StateLock.take(dir);
    expect(lockOf(dir)).toMatchObject({ pid: process.pid, host: hostname() });
    let refused: unknown;
    try {
      StateLock.take(dir);
    } catch (error) {
      refused = error;
    }
    expect(refused).toMatchObject({ descriptor: START_ERRORS.STATE_LOCKED });
    expect((refused as Error).message).toBe(
      `${dir} is in use by another simulator (pid ${process.pid} on this machine, since ${lockOf(dir).since}): stop it, or give another --state directory`,
    );
    lock.release();
    expect(existsSync(join(dir, LOCK_FILE))).toBe(false);
    StateLock.take(dir).release();
  });

  it("is taken over from a process that is gone, and from a pid now running another program", () => {
    const gone = stateDir();
    writeFileSync(
      join(gone, LOCK_FILE),
      JSON.stringify({ pid: deadPid(), host: hostname(), since: "then", token: "old" }),
    );
    const taken = StateLock.take(gone);
    expect(lockOf(gone)).toMatchObject({ pid: process.pid });
    taken.release();

    // This very process's pid, recorded with another start time: the pid was reused.
    const reused = stateDir();
    writeFileSync(
      join(reused, LOCK_FILE),
      JSON.stringify({ pid: process.pid, host: hostname(), since: "then", token: "old", started: "1" }),
    );
    StateLock.take(reused).release();
  });

  it("is not taken from a process on another machine, which cannot be checked; the message says how to free it", () => {
    const dir = stateDir();
    writeFileSync(join(dir, LOCK_FILE), JSON.stringify({ pid: 1, host: "elsewhere", since: "then", token: "t" }));
    expect(() => StateLock.take(dir)).toThrow(
      `(a process on another machine cannot be checked: if it is gone, delete ${join(dir, LOCK_FILE)})`,
    );
  });

  it("lets go only of its own lock", () => {
    const dir = stateDir();
    const lock = StateLock.take(dir);
    writeFileSync(join(dir, LOCK_FILE), JSON.stringify({ pid: 1, host: hostname(), since: "now", token: "other" }));
    lock.release();
    expect(lockOf(dir).token).toBe("other");
  });
});

describe("two simulators on one --state directory", () => {
  const args = demoWithState;

  it("the second exits 2 naming the first; once the first is killed (-9), the next one takes the directory over", async () => {
    const dir = stateDir();
    const first = await startSimulatorProcess(args(dir));
    const second = spawn(process.execPath, ["src/cli/simulate.ts", ...args(dir)], {
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    second.stdout!.on("data", (chunk) => (output += chunk));
    second.stderr!.on("data", (chunk) => (output += chunk));
    const [code] = await once(second, "exit");
    expect(code).toBe(2);
    expect(output).toContain(`${dir} is in use by another simulator (pid ${first.child.pid} on this machine`);
    expect(output).not.toMatch(/Usage:/);

    first.child.kill("SIGKILL");
    await first.exited;
    const third = await startSimulatorProcess(args(dir));
    expect(lockOf(dir).pid).toBe(third.child.pid);
    third.child.kill("SIGTERM");
    await third.exited;
    expect(existsSync(join(dir, LOCK_FILE))).toBe(false);
  }, 120_000);

  /** Two simulators started on `dir` at the same instant: what each printed, and how each ended (or that it runs). */
  async function startTwoAtOnce(dir: string) {
    const starts = [0, 1].map(() => {
      const child = spawn(process.execPath, ["src/cli/simulate.ts", ...args(dir)], {
        stdio: ["ignore", "pipe", "pipe"],
      });
      const run = { child, stdout: "", stderr: "", code: undefined as number | null | undefined, running: false };
      child.stdout!.on("data", (chunk) => {
        run.stdout += chunk;
        run.running ||= run.stdout.includes("Ctrl-C stops");
      });
      child.stderr!.on("data", (chunk) => (run.stderr += chunk));
      child.on("exit", (code) => (run.code = code));
      return run;
    });
    try {
      await until(
        "one runs and the other has exited",
        () => starts.some((r) => r.running) && starts.some((r) => r.code !== undefined),
      );
      const winner = starts.find((r) => r.running)!;
      const loser = starts.find((r) => r !== winner)!;
      expect(
        starts.filter((r) => r.running),
        "exactly one runs",
      ).toHaveLength(1);
      expect(winner.code, "the one that runs keeps running").toBeUndefined();
      expect(loser.code, loser.stdout + loser.stderr).toBe(2);
      const lines = loser.stderr.split("\n").filter((line) => line.trim() !== "");
      expect(lines, "the other says why in one line on stderr").toEqual([
        expect.stringContaining(`${dir} is in use by another simulator (pid ${winner.child.pid} on this machine`),
      ]);
      expect(lockOf(dir).pid).toBe(winner.child.pid);
    } finally {
      for (const { child } of starts) child.kill("SIGKILL");
    }
  }

  it("started at the same instant on a new directory: exactly one runs, the other exits 2 with one line", async () => {
    await startTwoAtOnce(stateDir());
  }, 120_000);

  it("racing to take over a lock left by a process that is gone: exactly one runs, the other exits 2 with one line", async () => {
    const dir = stateDir();
    writeFileSync(
      join(dir, LOCK_FILE),
      JSON.stringify({ pid: deadPid(), host: hostname(), since: "then", token: "old" }),
    );
    await startTwoAtOnce(dir);
  }, 120_000);
});
