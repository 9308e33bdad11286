import { spawn, type ChildProcess } from "node:child_process";

/** `npm run simulate`'s program in its own process: its output so far, and how it ended. */
export interface CliRun {
  child: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
  /** Resolves with the output once `text` shows (or the process ends: then it throws, with the output). */
  waitFor(text: string): Promise<string>;
  stop(): Promise<void>;
}

export function runSimulate(args: string[], env: NodeJS.ProcessEnv = {}): CliRun {
  const child = spawn(process.execPath, ["src/cli/simulate.ts", "--port", "0", "--no-rpc", ...args], {
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, ...env },
  });
  let output = "";
  child.stdout!.on("data", (chunk) => (output += chunk));
  child.stderr!.on("data", (chunk) => (output += chunk));
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  return {
    child,
    output: () => output,
    exited,
    async waitFor(text) {
      const deadline = Date.now() + 120_000;
      while (!output.includes(text)) {
        if (child.exitCode !== null || Date.now() > deadline)
          throw new Error(`no '${text}' in the output (exit ${child.exitCode}):\n${output}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      return output;
    },
    async stop() {
      if (child.exitCode === null) child.kill("SIGTERM");
      await exited;
    },
  };
}
