import { loadAbis } from "../core/abi.ts";
import { indexedEventsAbi } from "../indexer/decode.ts";
import { openCheckpoint, readRest, type CheckpointOf } from "./checkpoint.ts";
import type { Part } from "./checkpoint-parts.ts";
import { foldEntries, NotFoldable, type FoldedState } from "./fold.ts";
import { Journal } from "./journal.ts";

/**
 * A journal opened for a start, and what it holds: the state to answer from while the chains replay it, when it can be
 * folded.
 */
export interface OpenedState {
  journal: Journal;
  /**
   * The state at the journal's end (its checkpoint, or the world as the cache holds it, with the lines after it folded
   * on).
   */
  folded?: FoldedState;
  /**
   * When nothing follows the checkpoint: its parts not read yet (each chain's items, balances and histories), put into
   * `folded` as they are read.
   */
  rest?: Generator<Part>;
  /**
   * Why the journal is replayed before anything is answered (no checkpoint nor cached world to start from, a line the
   * fold cannot take).
   */
  replayFirst?: string;
  /** The checkpoint it was folded from. */
  checkpoint?: CheckpointOf;
}

/**
 * Opens the journal of `dir` (refused if another world's or a newer simulator's) and folds it: from
 * its checkpoint, or from the world `base` gives (the world cache) when it has none, the lines after
 * it are folded on. A checkpoint nothing follows (a stop that wrote one) is answered from as soon as
 * its first part is read. What cannot be folded is replayed instead, before the first answer.
 */
export async function openState(
  dir: string,
  worldId: string,
  base: () => Promise<FoldedState | undefined>,
  told: (line: string) => void,
): Promise<OpenedState> {
  const { journal, warning } = Journal.open(dir, worldId, told);
  if (warning) told(warning);
  try {
    const opened = openCheckpoint(dir, {
      world: worldId,
      generation: journal.header.generation ?? "",
      bytes: journal.bytes,
    });
    if (opened && opened.head.offset === journal.bytes) {
      const { format, world, generation, offset, at, ...state } = opened.head;
      const folded = { ...state, snapshots: { count: 0, taken: [] } };
      return { journal, folded, rest: opened.rest, checkpoint: { format, world, generation, offset, at } };
    }
    const checkpoint = opened && { ...opened.head, snapshots: readRest(opened) };
    const start = checkpoint ?? (await base());
    if (!start) {
      // An empty journal has nothing to replay: the world is loaded as without one.
      if (journal.bytes === journal.headerBytes) return { journal };
      return { journal, replayFirst: "no checkpoint, and no cached world to fold it on" };
    }
    const lines = journal.read(checkpoint?.offset ?? journal.headerBytes);
    try {
      return {
        journal,
        folded: foldEntries(start, lines, indexedEventsAbi(loadAbis())),
        ...(checkpoint ? { checkpoint } : {}),
      };
    } catch (error) {
      if (!(error instanceof NotFoldable)) throw error;
      return { journal, replayFirst: error.message };
    }
  } catch (error) {
    journal.close();
    throw error;
  }
}
