import { fileURLToPath } from "node:url";
import { parseArgs, type ParseArgsConfig } from "node:util";
import { isStartError, StartError, START_ERRORS } from "../core/errors.ts";
import { nodeTooOld } from "../core/node-version.ts";

type Parsed<T extends ParseArgsConfig> = ReturnType<typeof parseArgs<T>>;
type Names<S extends string> = S extends `${infer Name} ${infer Rest}` ? Name | Names<Rest> : S;

/** Flags that take text, one per name of `names` (space-separated), as parseArgs options. */
export const texts = <const S extends string>(names: S) =>
  Object.fromEntries(names.split(" ").map((name) => [name, { type: "string" }])) as {
    [Name in Names<S>]: { type: "string" };
  };

/** Flags that take no value (false unless given), one per name of `names` (space-separated). */
export const switches = <const S extends string>(names: S) =>
  Object.fromEntries(names.split(" ").map((name) => [name, { type: "boolean", default: false }])) as {
    [Name in Names<S>]: { type: "boolean"; default: false };
  };

/** Every command's -h, --help. */
export const HELP = { help: { type: "boolean", short: "h", default: false } } as const;

/**
 * A command's arguments as parseArgs reads them, then `check`ed (a value the command cannot take throws); or the exit
 * code when nothing is left to do: 0 after --help (the usage text printed), 2 when they cannot be taken (told with the
 * usage text, after `prefix`).
 */
export function commandLine<const T extends ParseArgsConfig>(
  config: T,
  usage: string,
  check: (parsed: Parsed<T>) => void = () => {},
  prefix = "",
): Parsed<T> | 0 | 2 {
  try {
    const parsed = parseArgs(config);
    if ((parsed.values as { help?: boolean }).help) return (console.log(usage), 0);
    check(parsed);
    return parsed;
  } catch (error) {
    console.error(`${prefix}${(error as Error).message}\n\n${usage}`);
    return 2;
  }
}

/** Whether this Node.js is too old for the command, told on stderr when it is (the command exits 1). */
export function nodeRefused(): boolean {
  const tooOld = nodeTooOld();
  if (tooOld) console.error(tooOld);
  return tooOld !== undefined;
}

/** A flag or environment variable the program cannot use: the CLI prints it with the usage text and exits 2. */
export function usageError(message: string): StartError {
  return new StartError(START_ERRORS.USAGE, message);
}

/** A command's exit code after `error`: 2 for a usage error (told with the usage text), else 1 (told as `told` says). */
export function exitOn(error: unknown, usage: string, told: (error: Error) => string): 1 | 2 {
  const usageError = isStartError(error, START_ERRORS.USAGE);
  console.error(usageError ? `${error.message}\n\n${usage}` : told(error as Error));
  return usageError ? 2 : 1;
}

/** A base URL a flag gave: http(s), a host, any path (undefined stays so). */
export function httpUrlOption(flag: string, url: string | undefined): string | undefined {
  if (url !== undefined && !/^https?:\/\/[^\s/]+(\/\S*)?$/.test(url))
    throw usageError(`${flag}: '${url}' is not an http(s) URL`);
  return url;
}

/** Text a flag or environment variable gave, refused (`refusal`) when blank; undefined stays so. */
export function filledOption<T extends string | undefined>(text: T, refusal: string): T {
  if (text !== undefined && text.trim() === "") throw usageError(refusal);
  return text;
}

/** A whole number a flag or environment variable gave as text, within [min, max]. */
export function integerOption(flag: string, text: string, min: number, max = Number.MAX_SAFE_INTEGER): number {
  const value = Number(text);
  if (!/^[0-9]+$/.test(text) || value < min || value > max) {
    throw usageError(`${flag}: '${text}' is not a valid number (an integer from ${min} to ${max})`);
  }
  return value;
}

// Output to a pipe is written asynchronously: exiting at once can cut it short (a large
// `nft-sim openapi | …`). Each stream's callback runs once what was written before it is out.
const flushed = (stream: NodeJS.WriteStream) => new Promise<void>((done) => stream.write("", () => done()));

/** Exit with `code` once standard output and standard error are written out. */
export async function exitAfterOutput(code: number): Promise<never> {
  await Promise.all([flushed(process.stdout), flushed(process.stderr)]);
  process.exit(code);
}

/** Runs `command` on the process's arguments when its module is the script node was started with; exits with its code. */
export async function runAsScript(moduleUrl: string, command: (argv: string[]) => Promise<number | undefined>) {
  if (process.argv[1] !== fileURLToPath(moduleUrl)) return;
  const code = await command(process.argv.slice(2));
  if (code !== undefined) await exitAfterOutput(code);
}
