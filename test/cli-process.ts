import { spawn, type ChildProcess } from "node:child_process";
import { once } from "node:events";

/** `npm run simulate` as a user starts it: a child process, its output, and the URLs its banner prints. */
export interface SimulatorProcess {
  child: ChildProcess;
  /** The API's base URL, as the banner prints it. */
  base: string;
  /** Each chain's JSON-RPC URL, as the banner prints it. */
  rpcUrls: Map<number, string>;
  output(): string;
  /** Resolves with the exit code (or the signal) once the process has exited. */
  exited: Promise<number | string>;
}

const running = new Set<ChildProcess>();

/** Starts the simulator CLI with `args` (and `env` added to this process's) and waits for its banner (at most `startMs`). */
export async function startSimulatorProcess(
  args: string[],
  startMs = 90_000,
  env: Record<string, string> = {},
): Promise<SimulatorProcess> {
  const child = spawn(process.execPath, ["src/cli/simulate.ts", ...args], {
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, ...env },
  });
  running.add(child);
  const exited = once(child, "exit").then(([code, signal]) => (running.delete(child), code ?? signal));
  let output = "";
  child.stdout!.on("data", (chunk) => (output += chunk));
  child.stderr!.on("data", (chunk) => (output += chunk));
  const deadline = Date.now() + startMs;
  while (!output.includes("Ctrl-C stops") && Date.now() < deadline && child.exitCode === null)
    await new Promise((r) => setTimeout(r, 100));
  const base = output.match(/API\s+(http:\/\/[^\s/]+)\/api\/v2/)?.[1];
  if (!base) {
    child.kill("SIGKILL");
    throw new Error(`the simulator did not start:\n${output}`);
  }
  const rpcUrls = new Map(
    [...output.matchAll(/chain (\d+)\s.*?: (http:\/\/\S+)/g)].map(
      ([, chainId, url]) => [Number(chainId), url!] as const,
    ),
  );
  return { child, base, rpcUrls, output: () => output, exited };
}

/** Kills what a test file left running (for afterAll). */
export function killSimulatorProcesses(): void {
  for (const child of running) child.kill("SIGKILL");
}
