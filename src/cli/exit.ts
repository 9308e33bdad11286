import { fileURLToPath } from "node:url";

// Output to a pipe is written asynchronously: exiting at once can cut it short (a large
// `nft-sim openapi | …`). Each stream's callback runs once what was written before it is out.
const flushed = (stream: NodeJS.WriteStream) => new Promise<void>((done) => stream.write("", () => done()));

/** Exit with `code` once standard output and standard error are written out. */
export async function exitAfterOutput(code: number): Promise<never> {
  await Promise.all([flushed(process.stdout), flushed(process.stderr)]);
  process.exit(code);
}

/** Runs `command` on the process's arguments when its module is the script node was started with; exits with its code. */
export async function runAsScript(
  moduleUrl: string,
  command: (argv: string[]) => Promise<number | undefined>,
): Promise<void> {
  if (process.argv[1] !== fileURLToPath(moduleUrl)) return;
  const code = await command(process.argv.slice(2));
  if (code !== undefined) await exitAfterOutput(code);
}
