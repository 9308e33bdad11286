import { fork, spawn, type ChildProcess } from "node:child_process";
import { readFileSync } from "node:fs";
import { createServer } from "node:net";

export const ROOT = new URL("../../", import.meta.url).pathname;

/** A port nobody listens on right now (the OS picks it). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** Peak and current resident set size of a process, in MB, from /proc (Linux). */
export function memoryOf(pid: number): { peakMB: number; rssMB: number } | undefined {
  try {
    const status = readFileSync(`/proc/${pid}/status`, "utf8");
    const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(status)?.[1] ?? NaN);
    return { peakMB: kb("VmHWM") / 1024, rssMB: kb("VmRSS") / 1024 };
  } catch {
    return undefined;
  }
}

/** CPU time (user + system) a process has used so far, in ms, from /proc (Linux; 100 ticks a second). */
export function cpuMsOf(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/** A child process this benchmark started; only these are ever signalled. */
export class Child {
  readonly process: ChildProcess;
  readonly startedAt: number;
  output = "";
  #exited: Promise<number | null>;

  constructor(child: ChildProcess, startedAt: number) {
    this.process = child;
    this.startedAt = startedAt;
    child.stdout?.on("data", (chunk: Buffer) => (this.output += chunk.toString("utf8")));
    child.stderr?.on("data", (chunk: Buffer) => (this.output += chunk.toString("utf8")));
    this.#exited = new Promise((resolve) => child.once("exit", (code) => resolve(code)));
  }

  get pid(): number {
    return this.process.pid!;
  }

  get running(): boolean {
    return this.process.exitCode === null && this.process.signalCode === null;
  }

  memory() {
    return memoryOf(this.pid);
  }

  /** Resolves when `pattern` shows up in the child's output; rejects if it exits first or time runs out. */
  async waitFor(pattern: RegExp, timeoutMs: number): Promise<RegExpExecArray> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const match = pattern.exec(this.output);
      if (match) return match;
      if (!this.running)
        throw new Error(`process ${this.pid} exited before printing ${pattern}:\n${this.output.slice(-3000)}`);
      if (Date.now() > deadline)
        throw new Error(
          `process ${this.pid} did not print ${pattern} within ${timeoutMs} ms:\n${this.output.slice(-3000)}`,
        );
      await sleep(10);
    }
  }

  /** SIGTERM (the simulator then closes and exits, writing a CPU profile if asked), SIGKILL after a grace period. */
  async stop(graceMs = 15_000): Promise<void> {
    if (!this.running) return;
    this.process.kill("SIGTERM");
    const timer = setTimeout(() => this.running && this.process.kill("SIGKILL"), graceMs);
    await this.#exited;
    clearTimeout(timer);
  }
}

/** Starts `node <args>` with the same Node as this process (the project's Node 22). */
export function startNode(args: string[], nodeFlags: string[] = [], cwd = ROOT): Child {
  const startedAt = performance.now();
  const child = spawn(process.execPath, [...nodeFlags, ...args], { cwd, stdio: ["ignore", "pipe", "pipe"] });
  return new Child(child, startedAt);
}

/** Starts a bench helper with an IPC channel. */
export function forkNode(script: string, args: string[] = []): Child {
  const startedAt = performance.now();
  const child = fork(script, args, { cwd: ROOT, stdio: ["ignore", "pipe", "pipe", "ipc"] });
  return new Child(child, startedAt);
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Stops every child still running when the benchmark ends or fails. */
export const children = new Set<Child>();
// Whatever way this process ends (a thrown error included), its children do not outlive it.
process.on("exit", () => {
  for (const child of children) if (child.running) child.process.kill("SIGKILL");
});
export async function stopAll(): Promise<void> {
  await Promise.all([...children].map((child) => child.stop()));
}
