// Output to a pipe is written asynchronously: exiting at once can cut it short (a large
// `nft-sim openapi | …`). Each stream's callback runs once what was written before it is out.
const flushed = (stream: NodeJS.WriteStream) => new Promise<void>((done) => stream.write("", () => done()));

/** Exit with `code` once standard output and standard error are written out. */
export async function exitAfterOutput(code: number): Promise<never> {
  await Promise.all([flushed(process.stdout), flushed(process.stderr)]);
  process.exit(code);
}
