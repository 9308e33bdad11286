import { spawn, type ChildProcess } from "node:child_process";
import { once } from "node:events";

// Programs run as a user runs them: a child process, what it prints, and waiting for a text in it
// (the banner, a reload) as the output arrives, never by polling.

/** The banner's last line: once it is printed, the simulator serves. */
export const BANNER_END = "Ctrl-C stops";

/** How long a simulator may take to print its banner before it is taken for a hang (the default world uncached, on a busy machine). */
const START_MS = 120_000;

/** What a child process prints, stdout and stderr together as a terminal shows them. */
export interface Printed {
  output(): string;
  /** Resolves with the output once it holds `text`; fails, with the output, if the process ends first or after `timeoutMs` (a hang). */
  waitFor(text: string | RegExp, timeoutMs?: number): Promise<string>;
}

export function printedBy(child: ChildProcess): Printed {
  let output = "";
  let closed = false;
  const waiting = new Set<() => void>();
  const changed = () => waiting.forEach((check) => check());
  const take = (chunk: Buffer | string) => {
    output += chunk;
    changed();
  };
  child.stdout?.on("data", take);
  child.stderr?.on("data", take);
  child.once("close", () => {
    closed = true;
    changed();
  });
  return {
    output: () => output,
    waitFor: (text, timeoutMs = START_MS) =>
      new Promise((resolve, reject) => {
        const done = (settle: () => void) => {
          waiting.delete(check);
          clearTimeout(timer);
          settle();
        };
        const check = () => {
          if (typeof text === "string" ? output.includes(text) : text.test(output)) done(() => resolve(output));
          else if (closed)
            done(() =>
              reject(new Error(`ended (${child.exitCode ?? child.signalCode}) before printing '${text}':\n${output}`)),
            );
        };
        const timer = setTimeout(
          () => done(() => reject(new Error(`printed no '${text}' within ${timeoutMs / 1000} s:\n${output}`))),
          timeoutMs,
        );
        waiting.add(check);
        check();
      }),
  };
}

/** `npm run simulate`'s program (the sources, on this Node) in a process of its own. */
export interface SimulatorRun extends Printed {
  child: ChildProcess;
  /** Resolves with the exit code (or the signal) once the process has ended and its output is all read. */
  exited: Promise<number | string>;
  /** Signals it (SIGTERM unless told) if it still runs, and resolves as `exited` does. */
  stop(signal?: NodeJS.Signals): Promise<number | string>;
}

/** A simulator that printed its banner, with the URLs the banner gives. */
export interface SimulatorProcess extends SimulatorRun {
  /** The API's base URL. */
  base: string;
  /** Each chain's JSON-RPC URL. */
  rpcUrls: Map<number, string>;
}

const running = new Set<ChildProcess>();

/**
 * Starts `npm run simulate`'s program with `args` and answers at once: a test waits for what it expects (a banner, a
 * refusal). `within` is a command that runs it (`unshare … -- sh -c '…; exec "$@"' sh`), the program its last arguments.
 */
export function spawnSimulator(args: string[], env: NodeJS.ProcessEnv = {}, within: string[] = []): SimulatorRun {
  const [command, ...commandArgs] = [...within, process.execPath, "src/cli/simulate.ts", ...args] as [
    string,
    ...string[],
  ];
  const child = spawn(command, commandArgs, {
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, ...env },
  });
  running.add(child);
  const printed = printedBy(child);
  const exited = once(child, "close").then(
    ([code, signal]) => (running.delete(child), (code ?? signal) as number | string),
  );
  return {
    child,
    exited,
    ...printed,
    stop(signal = "SIGTERM") {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return exited;
    },
  };
}

/** Starts `npm run simulate`'s program with `args` and waits for its banner. */
export async function startSimulatorProcess(
  args: string[],
  { env, timeoutMs, within }: { env?: NodeJS.ProcessEnv; timeoutMs?: number; within?: string[] } = {},
): Promise<SimulatorProcess> {
  const run = spawnSimulator(args, env, within);
  const output = await run.waitFor(BANNER_END, timeoutMs).catch((error: Error) => {
    run.child.kill("SIGKILL");
    throw new Error(`the simulator did not start: ${error.message}`);
  });
  const { base, rpcUrls } = bannerUrls(output);
  if (!base) {
    run.child.kill("SIGKILL");
    throw new Error(`the banner names no API URL:\n${output}`);
  }
  return { ...run, base, rpcUrls };
}

/** The URLs a banner gives: the API's base URL, and each chain's JSON-RPC URL. */
export function bannerUrls(output: string): { base: string | undefined; rpcUrls: Map<number, string> } {
  return {
    base: /API\s+(http:\/\/[^\s/]+)\/api\/v2/.exec(output)?.[1],
    rpcUrls: new Map(
      [...output.matchAll(/chain (\d+)\s.*?: (http:\/\/\S+)/g)].map(([, chainId, url]) => [Number(chainId), url!]),
    ),
  };
}

/** Kills what a test file left running (for afterAll). */
export function killSimulatorProcesses(): void {
  for (const child of running) child.kill("SIGKILL");
}
