import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ROOT } from "./processes.ts";

/** The anvil binary the npm package carries. */
export const ANVIL_BINARY = `${ROOT}node_modules/@foundry-rs/anvil-linux-amd64/bin/anvil`;

// However a bench ends, no anvil it started outlives it.
const anvils = new Set<ChildProcess>();
process.on("exit", () => anvils.forEach((child) => child.kill("SIGKILL")));

export interface BenchAnvil {
  url: string;
  pid: number;
  /** Kills it, answering once it has exited. */
  stop(): Promise<void>;
}

/** A fresh anvil on a free port with `args`, once it listens. */
export async function spawnAnvil(args: string[], binary = ANVIL_BINARY): Promise<BenchAnvil> {
  // The states it writes to disk (about 77 MB per thousand blocks) go in a folder of its own, removed once it exits:
  // in anvil's default one, a killed anvil leaves them for good.
  const states = mkdtempSync(join(tmpdir(), "bench-anvil-states-"));
  const child = spawn(binary, ["--port", "0", "--cache-path", states, ...args], {
    stdio: ["ignore", "pipe", "ignore"],
  });
  anvils.add(child);
  child.once("exit", () => {
    anvils.delete(child);
    rmSync(states, { recursive: true, force: true });
  });
  const port = await new Promise<number>((resolve) => {
    let out = "";
    child.stdout!.on("data", (chunk: Buffer) => {
      const match = /Listening on 127\.0\.0\.1:(\d+)/.exec((out += chunk));
      if (match) resolve(Number(match[1]));
    });
  });
  child.stdout!.resume();
  return {
    url: `http://127.0.0.1:${port}`,
    pid: child.pid!,
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once("exit", () => resolve());
        child.kill("SIGKILL");
      }),
  };
}
