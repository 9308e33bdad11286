import { join } from "node:path";
import { loadAbis } from "../core/abi.ts";
import { indexedEventsAbi } from "../indexer/log-source.ts";
import type { JournalEntry } from "./entries.ts";
import { foldEntries, type FoldedState, type NotFoldable } from "./fold.ts";
import { CHECKPOINT_FILE, ofJournal, openImage, readRest, type ImageOf, type OpenedImage, type Part } from "./image.ts";
import type { Disk } from "./disk.ts";
import { Journal } from "./journal.ts";

/** An image found on disk (its head read), and where. */
export interface FoundImage {
  image: OpenedImage;
  /** The journal's checkpoint, or the world cache's image of the world as loaded. */
  from: "checkpoint" | "cache";
  /** The folder the world cache's image was found in. */
  cachedIn?: string;
}

/** An image loaded to answer from at once. */
export interface LoadedImage extends Omit<FoundImage, "image"> {
  /**
   * What to answer from: the image, with the journal's lines after it folded on. With `rest`, each chain's items,
   * balances and histories are not in it yet: they come as its parts are read.
   */
  state: FoldedState;
  rest?: Generator<Part>;
  of: ImageOf;
}

/**
 * `found`, loaded to answer from: read whole (`entries` given, or "whole") and the lines after it (`entries`) folded on,
 * as the running simulator did (or why not: NotFoldable, a line the fold cannot take without the chains); or, when
 * nothing follows it, answered from as soon as its head is read.
 */
export function loadImage(found: FoundImage, entries?: "whole"): LoadedImage;
export function loadImage(found: FoundImage, entries: (() => JournalEntry[]) | undefined): LoadedImage | NotFoldable;
export function loadImage(
  { image, ...found }: FoundImage,
  entries?: (() => JournalEntry[]) | "whole",
): LoadedImage | NotFoldable {
  const { format, world, generation, offset, at, ...head } = image.head;
  const of = { format, world, generation, offset, at };
  if (!entries) return { ...found, of, state: { ...head, snapshots: { count: 0, taken: [] } }, rest: image.rest };
  const state = { ...head, snapshots: readRest(image) };
  if (entries === "whole") return { ...found, of, state };
  const folded = foldEntries(state, entries(), indexedEventsAbi(loadAbis()));
  return "notFoldable" in folded ? folded : { ...found, of, state: folded };
}

/**
 * Opens the journal of `dir` (refused if another world's or a newer simulator's) and the image to answer from: its
 * checkpoint, or the world as the world cache holds it (`cachedWorld`) when it has none, with the lines after it
 * folded on. What cannot be folded is replayed instead, before the first answer (`replayFirst` says why: no
 * checkpoint nor cached world to start from, a line the fold cannot take).
 */
export function openState(
  dir: string,
  worldId: string,
  cachedWorld: () => FoundImage | undefined,
  told: (line: string) => void,
  disk?: Disk,
) {
  const { journal, warning } = Journal.open(dir, worldId, told, disk);
  if (warning) told(warning);
  try {
    const fits = ofJournal({ world: worldId, generation: journal.header.generation ?? "", bytes: journal.bytes });
    const checkpoint = openImage(join(dir, CHECKPOINT_FILE), fits);
    const found: FoundImage | undefined = checkpoint ? { image: checkpoint, from: "checkpoint" } : cachedWorld();
    if (!found) {
      // An empty journal has nothing to replay: the world is loaded as without one.
      if (journal.bytes === journal.headerBytes) return { journal };
      return { journal, replayFirst: "no checkpoint, and no cached world to fold it on" };
    }
    // A cached world is the image at offset 0: what follows it is every line after the journal's first.
    const from = Math.max(found.image.head.offset, journal.headerBytes);
    const image = loadImage(found, journal.bytes > from ? () => journal.read(from) : undefined);
    return "notFoldable" in image ? { journal, replayFirst: image.notFoldable } : { journal, image };
  } catch (error) {
    journal.close();
    throw error;
  }
}
