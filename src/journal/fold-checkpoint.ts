import { join } from "node:path";
import { loadAbis } from "../core/abi.ts";
import { indexedEventsAbi } from "../indexer/log-source.ts";
import type { Disk } from "./disk.ts";
import { CHECKPOINT_FILE, encodeImage, ofJournal, openImage, readRest, writeImage } from "./image.ts";
import { foldEntries } from "./fold.ts";
import { readEntries } from "./journal-reader.ts";
import { JOURNAL_FILE } from "./journal.ts";

/**
 * What the simulator asks of a fold: the journal of `dir`, up to byte `to` (all of it durable), onto its checkpoint.
 */
export interface FoldJob {
  dir: string;
  world: string;
  generation: string;
  to: number;
}

/**
 * What a fold answers: the checkpoint it wrote, or the line it could not fold (the simulator then writes one itself).
 */
export type FoldResult = { offset: number; at: string; bytes: number } | { stuck: string } | { failed: string };

/** Reads the checkpoint and the journal's lines after it, folds them on, and writes the new checkpoint through `disk`. */
export function foldCheckpoint({ dir, world, generation, to }: FoldJob, disk: Disk): FoldResult {
  try {
    const path = join(dir, CHECKPOINT_FILE);
    const opened = openImage(path, ofJournal({ world, generation, bytes: to }));
    if (!opened) throw new Error("there is no checkpoint of this journal to fold onto");
    const base = { ...opened.head, snapshots: readRest(opened) };
    const entries = readEntries(join(dir, JOURNAL_FILE), base.offset, to, { byte: base.offset });
    const folded = foldEntries(base, entries, indexedEventsAbi(loadAbis()));
    const at = new Date().toISOString();
    if ("notFoldable" in folded) return { stuck: folded.notFoldable };
    const image = encodeImage({ world, generation, offset: to, at }, folded);
    return { offset: to, at, bytes: writeImage(path, image, undefined, disk) };
  } catch (error) {
    return { failed: String((error as Error)?.message ?? error) };
  }
}
