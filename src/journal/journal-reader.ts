import { closeSync, openSync, readSync, statSync } from "node:fs";
import type { JournalEntry } from "./entries.ts";
import { parseJournal, type Place } from "./parse.ts";

/** How much of the journal is read at a time (a replay reads it in pieces, not whole). */
const CHUNK_BYTES = 4 * 1024 * 1024;
/** How much of its end is read first to find its last whole line. */
const TAIL_BYTES = 64 * 1024;

function readRange(fd: number, from: number, to: number): Buffer {
  const bytes = Buffer.alloc(to - from);
  for (let done = 0; done < bytes.length;) {
    const read = readSync(fd, bytes, done, bytes.length - done, from + done);
    if (read === 0) return bytes.subarray(0, done);
    done += read;
  }
  return bytes;
}

/**
 * A journal file's first line, where it ends and where its whole lines end (a torn last line is not one, and is
 * named; a file not there has none). Reads only the first line and the last ones (a journal of a week of use is large:
 * the rest is read when it is replayed).
 */
export function scanJournal(path: string) {
  const size = statSync(path, { throwIfNoEntry: false })?.size ?? 0;
  if (size === 0) return { header: undefined, headerBytes: 0, goodBytes: 0 };
  const fd = openSync(path, "r");
  try {
    const first = readRange(fd, 0, Math.min(size, TAIL_BYTES));
    const headerEnd = first.indexOf(0x0a);
    // No whole line at all: the first was torn.
    if (headerEnd === -1) return { header: undefined, headerBytes: 0, ...parseJournal(first, path) };
    const header = parseJournal(first.subarray(0, headerEnd + 1), path).entries[0];
    // The last whole line, and what follows it: from the newline before it on.
    for (let span = TAIL_BYTES; ; span *= 2) {
      const from = Math.max(headerEnd + 1, size - span);
      const piece = readRange(fd, from, size);
      const last = piece.lastIndexOf(0x0a, piece.length - 2);
      if (last === -1 && from > headerEnd + 1) continue;
      const lineStart = from + last + 1;
      const tail = parseJournal(piece.subarray(last + 1), path);
      return { header, headerBytes: headerEnd + 1, goodBytes: lineStart + tail.goodBytes, warning: tail.warning };
    }
  } finally {
    closeSync(fd);
  }
}

/**
 * The entries of the journal's whole lines between byte `from` and `to` (`place` names where they begin, for errors).
 */
export function readEntries(path: string, from: number, to: number, place: Place): JournalEntry[] {
  const fd = openSync(path, "r");
  try {
    return parseJournal(readRange(fd, from, to), path, place).entries;
  } finally {
    closeSync(fd);
  }
}

/** The same, a piece at a time (each piece ends at a line's end), for a replay of a long journal. */
export async function* readEntryPieces(
  path: string,
  from: number,
  to: number,
  firstLine: number,
): AsyncGenerator<JournalEntry[]> {
  const fd = openSync(path, "r");
  try {
    let line = firstLine;
    for (let at = from; at < to;) {
      const piece = readRange(fd, at, Math.min(to, at + CHUNK_BYTES));
      const end = at + CHUNK_BYTES >= to ? piece.length : piece.lastIndexOf(0x0a) + 1;
      if (end === 0) throw new Error(`${path}: a line longer than ${CHUNK_BYTES} bytes at byte ${at}`);
      const { entries } = parseJournal(piece.subarray(0, end), path, { line });
      line += entries.length;
      at += end;
      yield entries;
    }
  } finally {
    closeSync(fd);
  }
}
