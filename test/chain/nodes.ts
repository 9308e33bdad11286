import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { needing } from "../needs.ts";
import { printedBy } from "../processes.ts";

// Real nodes for the tests of the simulator on a node it did not start: anvil (the npm package's
// binary) and Hardhat's own node, each a separate process on a port the OS picks.

const ROOT = fileURLToPath(new URL("../../", import.meta.url));

/** Where npm put anvil for this machine: @foundry-rs/anvil's platform package (checked on linux-x64). */
export const ANVIL_BINARY = `${ROOT}node_modules/@foundry-rs/anvil-linux-amd64/bin/anvil`;

/** The anvil tests run on linux-x64, where the binary's package is checked: elsewhere skipped, and failed in CI. */
export const { describe: describeOnAnvil } = needing(
  process.platform === "linux" && process.arch === "x64"
    ? undefined
    : `anvil's tests run on linux-x64; this is ${process.platform}-${process.arch}`,
  "run CI on linux-x64, where npm installs @foundry-rs/anvil's binary these tests check",
);

/** A node process the test started: its URL, and how to stop it (only this process is ever signalled). */
export interface NodeProcess {
  url: string;
  port: number;
  stop(signal?: NodeJS.Signals): Promise<void>;
}

async function started(
  child: ChildProcess,
  listening: RegExp,
  what: string,
): Promise<{ port: number; exited: Promise<void> }> {
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const output = await printedBy(child)
    .waitFor(listening, 60_000)
    .catch((error: Error) => {
      child.kill("SIGKILL");
      throw new Error(`${what} did not listen: ${error.message.slice(-2000)}`);
    });
  return { port: Number(listening.exec(output)![1]), exited };
}

function nodeProcess(child: ChildProcess, port: number, exited: Promise<void>): NodeProcess {
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    async stop(signal = "SIGINT") {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill(signal);
      const timer = setTimeout(() => child.kill("SIGKILL"), 10_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

export interface AnvilStart {
  chainId: number;
  /** Unix time of genesis (a world's replay needs the node before its first step). */
  timestamp?: number;
  /** Keep the chain in this file across restarts (anvil --state: loaded at start, written at exit). */
  state?: string;
  /** A port to take (a restart on the port the simulator knows); default: one the OS picks. */
  port?: number;
  /** The genesis block's number (anvil --number): a world at live heights starts just above it. */
  number?: number;
  /** Mine on a timer, a block every this many seconds (anvil --block-time), not each transaction as it comes. */
  blockTime?: number;
}

/** Starts anvil; throws (the test fails) if its binary is missing on linux-x64: `npm install` should have put it there. */
export async function startAnvil({
  chainId,
  timestamp,
  state,
  port = 0,
  number,
  blockTime,
}: AnvilStart): Promise<NodeProcess> {
  if (!existsSync(ANVIL_BINARY))
    throw new Error(
      `anvil is not installed at ${ANVIL_BINARY}: npm install brings it (@foundry-rs/anvil, a devDependency)`,
    );
  const args = [
    "--port",
    String(port),
    "--chain-id",
    String(chainId),
    ...(timestamp ? ["--timestamp", String(timestamp)] : []),
    ...(state ? ["--state", state] : []),
    ...(number ? ["--number", String(number)] : []),
    ...(blockTime ? ["--block-time", String(blockTime)] : []),
    // The states anvil writes to disk (about 77 MB per thousand blocks) go under the run's own folder, removed when the
    // run ends: in anvil's default folder, a node stopped with SIGKILL leaves them behind for good.
    "--cache-path",
    mkdtempSync(join(tmpdir(), "anvil-states-")),
  ];
  const child = spawn(ANVIL_BINARY, args, { stdio: ["ignore", "pipe", "pipe"] });
  const { port: bound, exited } = await started(child, /Listening on 127\.0\.0\.1:(\d+)/, "anvil");
  return nodeProcess(child, bound, exited);
}

export interface HardhatNodeStart {
  chainId: number;
  /** Genesis time (Hardhat's node takes it from its config: test/chain/fixtures/hardhat-node.config.ts). */
  initialDate?: Date;
}

/** Starts Hardhat's own JSON-RPC node (`hardhat node`) on the project's Node 22. */
export async function startHardhatNode({ chainId, initialDate }: HardhatNodeStart): Promise<NodeProcess> {
  const cli = `${ROOT}node_modules/hardhat/dist/src/cli.js`;
  const config = `${ROOT}test/chain/fixtures/hardhat-node.config.ts`;
  const env = {
    ...process.env,
    SIM_NODE_CHAIN_ID: String(chainId),
    ...(initialDate ? { SIM_NODE_INITIAL_DATE: initialDate.toISOString() } : {}),
  };
  const child = spawn(process.execPath, [cli, "--config", config, "node", "--hostname", "127.0.0.1", "--port", "0"], {
    cwd: ROOT,
    env,
    stdio: ["ignore", "pipe", "pipe"],
  });
  const { port, exited } = await started(child, /JSON-RPC server at http:\/\/127\.0\.0\.1:(\d+)\//, "hardhat node");
  return nodeProcess(child, port, exited);
}
