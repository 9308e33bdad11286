import { StartError, START_ERRORS } from "../core/errors.ts";
import type { JournalEntry, WorldEntry } from "./entries.ts";

/**
 * The journal's format: 1 had no version in its first line; 2 records blocks with what they did (their head and logs).
 */
export const JOURNAL_FORMAT = 2;

/** A journal the simulator will not start on (damaged, of another world or format): the CLI prints it and exits 1. */
export function journalRefused(message: string): StartError {
  return new StartError(START_ERRORS.JOURNAL_REFUSED, message);
}

/**
 * Where the bytes read begin in the journal: the number of their first line, or (read from a checkpoint on) their byte
 * offset.
 */
export type Place = { line: number } | { byte: number };

/**
 * Reads a journal's lines: its entries, and where its whole lines end; a torn last line (a crash mid-write) is left out
 * with a warning, damage anywhere else refused.
 */
export function parseJournal(bytes: Buffer, path: string, place: Place = { line: 1 }) {
  const entries: JournalEntry[] = [];
  let offset = 0;
  while (offset < bytes.length) {
    const end = bytes.indexOf(0x0a, offset);
    const line = bytes.subarray(offset, end === -1 ? bytes.length : end).toString("utf8");
    const entry = end === -1 ? undefined : parseLine(line);
    if (!entry) {
      const isLast = end === -1 || end === bytes.length - 1;
      if (!isLast)
        throw journalRefused(
          `${path}: ${"line" in place ? `line ${place.line + entries.length}` : `the line at byte ${place.byte + offset}`} is not a journal entry, and more follow it; the journal is damaged`,
        );
      return {
        entries,
        goodBytes: offset,
        warning: `${path}: the last entry was cut off mid-write (a crash); it was never acknowledged and is dropped`,
      };
    }
    entries.push(entry);
    offset = end + 1;
  }
  return { entries, goodBytes: offset };
}

function parseLine(line: string): JournalEntry | undefined {
  try {
    const entry = JSON.parse(line) as JournalEntry;
    return typeof entry === "object" && entry !== null && typeof entry.t === "string" ? entry : undefined;
  } catch {
    return undefined;
  }
}

/** The first line, checked: a journal of this world, in a format this simulator reads. */
export function checkHeader(first: JournalEntry | undefined, worldId: string, path: string): WorldEntry {
  if (!first || first.t !== "world") throw journalRefused(`${path} does not start with the line naming its world`);
  const format = first.format ?? 1;
  if (format > JOURNAL_FORMAT)
    throw journalRefused(
      `${path} was written by a newer simulator (journal format ${format}; this one reads formats up to ${JOURNAL_FORMAT}): ` +
        "start it with that newer version of nft-service-simulator (npm install it again), " +
        "or give another --state directory",
    );
  if (first.id !== worldId)
    throw journalRefused(
      `${path} holds the journal of another world (${first.id}), not of this one (${worldId}): ` +
        "start with the --fixture, --chains and --public-url (or --port) it was written with, " +
        "or give another --state directory",
    );
  return first;
}
