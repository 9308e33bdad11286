import { closeSync, fsyncSync, openSync, readFileSync, renameSync, rmSync, writeSync } from "node:fs";
import { join } from "node:path";
import { applyPart, decodeParts, encodeParts, type Head, type Part } from "./checkpoint-parts.ts";
import type { FoldedState } from "./fold.ts";
import { syncDir } from "./sync-dir.ts";

export const CHECKPOINT_FILE = "checkpoint";

/**
 * Bump when what a checkpoint holds, or how it is read, changes (an older one is then not used: the journal is
 * replayed).
 */
const CHECKPOINT_FORMAT = 2;

/** Which journal a checkpoint was made from, and how much of it: its first `offset` bytes. */
export interface CheckpointOf {
  format: number;
  world: string;
  generation: string;
  offset: number;
  /** When it was written (ISO). */
  at: string;
}

/** The journal folded up to `offset`, for the world and generation of the journal it was made from. */
export type Checkpoint = CheckpointOf & FoldedState;

/** Which journal a checkpoint must have been made from. */
export interface JournalIdentity {
  world: string;
  generation: string;
  /** The journal's size: a checkpoint past it belongs to something else. */
  bytes: number;
}

/**
 * A checkpoint as it is read a part at a time: its head (what collections are answered from) at once, the rest when
 * asked for.
 */
export interface OpenedCheckpoint {
  head: Head<CheckpointOf>;
  rest: Generator<Part>;
}

/**
 * This journal's checkpoint, its head read (undefined: none, another journal's, unreadable: the journal is folded or
 * replayed instead).
 */
export function openCheckpoint(dir: string, journal: JournalIdentity): OpenedCheckpoint | undefined {
  try {
    const opened = decodeParts<CheckpointOf>(readFileSync(join(dir, CHECKPOINT_FILE)));
    const { head } = opened;
    const fits =
      head?.format === CHECKPOINT_FORMAT &&
      head.world === journal.world &&
      head.generation === journal.generation &&
      head.offset <= journal.bytes &&
      Array.isArray(head.chains);
    return fits ? opened : undefined;
  } catch {
    return undefined;
  }
}

/** The whole checkpoint of this journal, read now (or undefined, as `openCheckpoint`). */
export function readCheckpoint(dir: string, journal: JournalIdentity): Checkpoint | undefined {
  const opened = openCheckpoint(dir, journal);
  if (!opened) return undefined;
  try {
    return { ...opened.head, snapshots: readRest(opened) };
  } catch {
    return undefined;
  }
}

/** Every part after the head, put into it; answers the snapshots' copies (the last part). */
export function readRest({ head, rest }: OpenedCheckpoint): FoldedState["snapshots"] {
  let snapshots: FoldedState["snapshots"] = { count: 0, taken: [] };
  for (const part of rest) snapshots = applyPart(head, part) ?? snapshots;
  return snapshots;
}

/**
 * Writes a checkpoint so that a crash at any moment leaves the previous one or this one, whole:
 * to a file of its own, synced, renamed over the checkpoint, the directory synced. What failed to
 * be written (a full disk) is removed, and the previous checkpoint stays.
 */
export function writeCheckpoint(
  dir: string,
  { world, generation, offset, ...state }: FoldedState & Omit<CheckpointOf, "format" | "at">,
): CheckpointOf & { bytes: number } {
  const of: CheckpointOf = { format: CHECKPOINT_FORMAT, world, generation, offset, at: new Date().toISOString() };
  let bytes = 0;
  const path = join(dir, CHECKPOINT_FILE);
  const partial = `${path}.partial`;
  try {
    const fd = openSync(partial, "w");
    try {
      for (const bytes of encodeParts(of, state))
        for (let done = 0; done < bytes.length;) done += writeSync(fd, bytes, done, bytes.length - done);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(partial, path);
  } catch (error) {
    rmSync(partial, { force: true });
    throw error;
  }
  syncDir(dir);
  return { ...of, bytes };
}
