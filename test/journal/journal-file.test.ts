import { closeSync, openSync, readFileSync, rmSync, writeSync } from "node:fs";
import { join } from "node:path";
import { afterAll, expect, it } from "vitest";
import { nodeDisk } from "../../src/journal/disk.ts";
import { JournalFile } from "../../src/journal/journal-file.ts";
import { mountTmpfs } from "./tmpfs.ts";

// The journal's file on a disk that fills up part way through a line: the part written is cut
// before anything else is, so the file only ever holds whole lines, and the next line goes right
// after the last whole one once there is space again.

const disk = mountTmpfs("1m");
afterAll(() => {
  if ("dir" in disk) disk.unmount();
});
if ("why" in disk) console.warn(`journal file test skipped: ${disk.why}`);

it.skipIf("why" in disk)("cuts a line the disk took only part of, and goes on after the last whole line", () => {
  const { dir } = disk as Exclude<typeof disk, { why: string }>;
  const path = join(dir, "journal.jsonl");
  const file = JournalFile.open(nodeDisk, path, 0, true);
  const line = (n: number) => Buffer.from(`${JSON.stringify({ n, pad: "x".repeat(3000) })}\n`);
  // A first line takes a page of its own; then the disk is full: the next line fits only in part, in that page's rest.
  file.append(line(0));
  const filler = openSync(join(dir, "filler"), "w");
  try {
    for (;;) writeSync(filler, Buffer.alloc(4096));
  } catch {
    // full
  } finally {
    closeSync(filler);
  }
  const written: number[] = [0];
  let failure: NodeJS.ErrnoException | undefined;
  for (let n = 1; n < 10 && !failure; n += 1) {
    try {
      file.append(line(n));
      written.push(n);
    } catch (error) {
      failure = error as NodeJS.ErrnoException;
    }
  }
  expect(failure?.code).toBe("ENOSPC");
  const whole = () =>
    readFileSync(path, "utf8")
      .split("\n")
      .filter(Boolean)
      .map((text) => JSON.parse(text).n);
  expect(readFileSync(path).length).toBe(file.size);
  expect(whole()).toEqual(written);
  expect(file.probe()).toBe(false);

  rmSync(join(dir, "filler"));
  expect(file.probe()).toBe(true);
  file.append(line(99));
  expect(whole()).toEqual([...written, 99]);
  expect(readFileSync(path).length).toBe(file.size);
  file.close();
});
