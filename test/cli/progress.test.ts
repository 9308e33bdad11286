import { PassThrough } from "node:stream";
import { expect, it } from "vitest";
import { replayDisplay } from "../../src/cli/progress.ts";

// Output that is a file or a pipe: a line per chain at each quarter of its replay (test/cli/terminal-progress.test.ts
// runs the bars on a terminal).

function pipe(): { stream: NodeJS.WriteStream; written: () => string[] } {
  const stream = new PassThrough();
  const chunks: string[] = [];
  stream.on("data", (chunk: Buffer) => chunks.push(chunk.toString("utf8")));
  return {
    stream: stream as unknown as NodeJS.WriteStream,
    written: () => chunks.join("").split("\n").filter(Boolean),
  };
}

it("writes a line per chain at each quarter its replay reaches, once, and nothing before the first", () => {
  const { stream, written } = pipe();
  const display = replayDisplay(stream);
  for (let done = 0; done <= 100; done += 5) display.update({ chainId: 56, done, total: 100 });
  display.update({ chainId: 137, done: 1, total: 3 });
  display.update({ chainId: 137, done: 3, total: 3 });
  display.update({ chainId: 56, done: 100, total: 100 });
  display.stop();
  expect(written()).toEqual([
    "  replaying chain 56: 25% (25/100 entries)",
    "  replaying chain 56: 50% (50/100 entries)",
    "  replaying chain 56: 75% (75/100 entries)",
    "  replaying chain 56: 100% (100/100 entries)",
    "  replaying chain 137: 25% (1/3 entries)",
    "  replaying chain 137: 100% (3/3 entries)",
  ]);
});

it("skips the quarters a big step jumps over", () => {
  const { stream, written } = pipe();
  const display = replayDisplay(stream);
  display.update({ chainId: 56, done: 10, total: 40 });
  display.update({ chainId: 56, done: 39, total: 40 });
  expect(written()).toEqual(["  replaying chain 56: 25% (10/40 entries)", "  replaying chain 56: 75% (39/40 entries)"]);
});
