import { spawn, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, dirname, join } from "node:path";
import { BANNER_END, bannerUrls, printedBy } from "../processes.ts";
import { shownLines } from "./shown-commands.ts";

// Runs a command exactly as the README or a docs page shows it, through `sh -c`. test/docs/commands.test.ts
// counts a shown command as tested when a test passes it, as a string literal, to runShown or
// startShown (or names its page to runShownPage). Two addresses in the docs stand for what a test
// starts itself, and are replaced by it: the simulator on its default port, and "your deployment".

export const STANDS_FOR = { api: "http://127.0.0.1:3000", deployment: "https://staging.example.com" } as const;

export interface RunOptions {
  cwd?: string;
  /** Variables the command reads, or sets for the process (PORT=0 rather than the default 3000). */
  env?: Record<string, string>;
  /** What the shown addresses stand for in this run. */
  api?: string;
  deployment?: string;
  timeoutMs?: number;
}

export interface Ran {
  code: number | null;
  stdout: string;
  stderr: string;
}

// curl answers a 4xx or 5xx with a non-zero exit (and the body), so a shown curl that fails fails its test.
const curlHome = mkdtempSync(join(tmpdir(), "shown-curl-"));
writeFileSync(join(curlHome, ".curlrc"), "fail-with-body\nsilent\nshow-error\nmax-time = 60\n");

function environment(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  // Vitest sets BASE_URL=/ for Vite; contract-test would read it as its target.
  const { BASE_URL: _vite, API_KEY: _key, ...env } = process.env;
  return {
    ...env,
    PATH: `${dirname(process.execPath)}${delimiter}${env.PATH}`,
    CURL_HOME: curlHome,
    npm_config_update_notifier: "false",
    ...extra,
  };
}

function expand(command: string, { api, deployment }: RunOptions): string {
  let expanded = command;
  if (api) expanded = expanded.replaceAll(STANDS_FOR.api, api);
  if (deployment) expanded = expanded.replaceAll(STANDS_FOR.deployment, deployment);
  return expanded;
}

/** Runs a shown command to its end. */
export async function runShown(command: string, options: RunOptions = {}): Promise<Ran> {
  const child = spawn("sh", ["-c", expand(command, options)], {
    cwd: options.cwd ?? process.cwd(),
    env: environment(options.env),
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk) => (stdout += chunk));
  child.stderr.on("data", (chunk) => (stderr += chunk));
  const timer = setTimeout(() => child.kill("SIGKILL"), options.timeoutMs ?? 120_000);
  const [code] = (await once(child, "close")) as [number | null];
  clearTimeout(timer);
  return { code, stdout, stderr };
}

/** Runs every command of a page's shell blocks in order, with the variables the page defines given in `env`. */
export async function runShownPage(
  page: string,
  options: RunOptions & { env: Record<string, string> },
): Promise<Ran[]> {
  const ran: Ran[] = [];
  for (const { line, text, definition } of shownLines(page, readFileSync(page, "utf8"))) {
    if (definition) {
      const name = text.slice(0, text.indexOf("="));
      if (!(name in options.env)) throw new Error(`${page}:${line} defines ${name}; give its value in env`);
      continue;
    }
    const run = await runShown(text, options);
    if (run.code !== 0) throw new Error(`${page}:${line} ${text}\nexit ${run.code}\n${run.stdout}${run.stderr}`);
    ran.push(run);
  }
  return ran;
}

export interface Started {
  /** The API's base URL, as the banner prints it. */
  base: string;
  output(): string;
  /** Ctrl-C, as a user stops it: SIGINT to the command's process group; resolves once every process has ended. */
  stop(): Promise<void>;
}

const started = new Set<ChildProcess>();

/** Starts a shown command that serves (npm run simulate, npx nft-sim simulate) and waits for its banner. */
export async function startShown(command: string, options: RunOptions = {}): Promise<Started> {
  const child = spawn("sh", ["-c", `exec ${expand(command, options)}`], {
    cwd: options.cwd ?? process.cwd(),
    env: environment(options.env),
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  started.add(child);
  const closed = once(child, "close").then(() => started.delete(child));
  const printed = printedBy(child);
  const output = await printed.waitFor(BANNER_END, options.timeoutMs).catch((error: Error) => {
    stopGroup(child, "SIGKILL");
    throw new Error(`${command} did not start: ${error.message}`);
  });
  const { base } = bannerUrls(output);
  if (!base) {
    stopGroup(child, "SIGKILL");
    throw new Error(`${command} printed no API URL:\n${output}`);
  }
  return {
    base,
    output: printed.output,
    stop: async () => {
      stopGroup(child, "SIGINT");
      await closed;
    },
  };
}

function stopGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  try {
    process.kill(-child.pid!, signal);
  } catch {
    // already gone
  }
}

/** Kills what a test file left running (for afterAll). */
export function killStarted(): void {
  for (const child of started) stopGroup(child, "SIGKILL");
}
