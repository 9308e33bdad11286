import { describe, expect, it } from "vitest";
import { START_ERRORS, StartError } from "../../src/core/errors.ts";
import { checkHeader, JOURNAL_FORMAT, parseJournal } from "../../src/journal/parse.ts";

const PATH = "state/journal.jsonl";
const lines = (...texts: string[]) => Buffer.from(texts.join(""));
const world = '{"t":"world","id":"demo","format":2}\n';
const key = '{"t":"apiKey","name":"guild"}\n';

/** The StartError `read` throws (it must throw one). */
function refusal(read: () => unknown): StartError {
  try {
    read();
  } catch (error) {
    expect(error).toBeInstanceOf(StartError);
    expect((error as StartError).descriptor).toBe(START_ERRORS.JOURNAL_REFUSED);
    return error as StartError;
  }
  throw new Error("it did not refuse");
}

describe("parseJournal", () => {
  it("reads every whole line, and says where they end", () => {
    const bytes = lines(world, key);
    expect(parseJournal(bytes, PATH)).toEqual({
      entries: [JSON.parse(world), JSON.parse(key)],
      goodBytes: bytes.length,
    });
    expect(parseJournal(Buffer.alloc(0), PATH)).toEqual({ entries: [], goodBytes: 0 });
  });

  it("drops a last line cut off mid-write, with a warning, and ends the good bytes before it", () => {
    for (const torn of ['{"t":"apiKey","na', '{"t":"apiKey","name":"guild"}', "not json\n", '"a string"\n']) {
      const read = parseJournal(lines(world, torn), PATH);
      expect(read.entries, torn).toEqual([JSON.parse(world)]);
      expect(read.goodBytes, torn).toBe(world.length);
      expect(read.warning, torn).toBe(
        `${PATH}: the last entry was cut off mid-write (a crash); it was never acknowledged and is dropped`,
      );
    }
  });

  it("refuses damage before the last line, naming its line, or its byte when read from a checkpoint on", () => {
    expect(refusal(() => parseJournal(lines(world, "{oops\n", key), PATH)).message).toBe(
      `${PATH}: line 2 is not a journal entry, and more follow it; the journal is damaged`,
    );
    expect(refusal(() => parseJournal(lines(world, '{"no":"t"}\n', key), PATH, { line: 10 })).message).toContain(
      "line 11 is not a journal entry",
    );
    expect(refusal(() => parseJournal(lines(key, "[]\n", key), PATH, { byte: 1_000 })).message).toContain(
      `the line at byte ${1_000 + key.length} is not a journal entry`,
    );
  });
});

describe("checkHeader", () => {
  it("takes a first line naming this world, in this format or an older one", () => {
    const header = JSON.parse(world);
    expect(checkHeader(header, "demo", PATH)).toBe(header);
    expect(checkHeader({ t: "world", id: "demo" }, "demo", PATH)).toEqual({ t: "world", id: "demo" });
  });

  it("refuses a journal without its world's line, of a newer format, or of another world, saying what to do", () => {
    expect(refusal(() => checkHeader(undefined, "demo", PATH)).message).toBe(
      `${PATH} does not start with the line naming its world`,
    );
    expect(refusal(() => checkHeader(JSON.parse(key), "demo", PATH)).message).toContain("does not start with");
    const newer = refusal(() => checkHeader({ t: "world", id: "demo", format: JOURNAL_FORMAT + 1 }, "demo", PATH));
    expect(newer.message).toContain(
      `journal format ${JOURNAL_FORMAT + 1}; this one reads formats up to ${JOURNAL_FORMAT}`,
    );
    const other = refusal(() => checkHeader({ t: "world", id: "default" }, "demo", PATH));
    expect(other.message).toContain("holds the journal of another world (default), not of this one (demo)");
    expect(other.message).toContain("or give another --state directory");
  });
});
