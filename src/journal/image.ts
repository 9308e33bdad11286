import { readFileSync } from "node:fs";
import { dirname } from "node:path";
import { deserialize, serialize } from "node:v8";
import type { FoldedChain, FoldedState } from "./fold.ts";
import { nodeDisk, type Disk } from "./disk.ts";

// An image is what the simulator answers from, as of one line of a journal, without its chains: every chain's index,
// the API keys and the control snapshots' copies. The journal's checkpoint is one (as of its `offset`); a world in the
// world cache is one at offset 0 (the world as loaded, before any journal). Both are written and read here alike.
//
// An image is written in parts, so that a start can answer from the first before it has read the rest: first what
// every collection answer needs (each chain's collections, holders, sales, listings and head, the API keys), then each
// chain's items, balances and histories in slices, and last the control snapshots' copies (only a fold needs those).

/**
 * Bump when what an image holds, or how it is read, changes (an older one is then not used: the journal is replayed,
 * the world replayed and cached again).
 */
const IMAGE_FORMAT = 2;

/**
 * What an image is of: the world (for a cached world, its cache key), the journal's generation ("" for a cached world)
 * and how much of it (its first `offset` bytes; 0 for the world as loaded), and when it was written (ISO).
 */
export interface ImageOf {
  format: number;
  world: string;
  generation: string;
  offset: number;
  at: string;
}

/** The journal's checkpoint: the image of its state as of a line, in the state directory. */
export const CHECKPOINT_FILE = "checkpoint";

/** Whether an image is the checkpoint of this journal: of its world and generation, and no longer than it. */
export function ofJournal(journal: { world: string; generation: string; bytes: number }): (of: ImageOf) => boolean {
  return (of) => of.world === journal.world && of.generation === journal.generation && of.offset <= journal.bytes;
}

/** Per-item maps of a chain's models: read after the first part. */
const ITEM_MAPS = ["items", "balances", "activity"] as const;
type ItemMap = (typeof ITEM_MAPS)[number];

/** How many entries of a map go in one part (a part is read between answers: a few milliseconds each). */
const SLICE = 4_000;

export type Part =
  | { t: "map"; chainId: number; map: ItemMap; entries: [string, unknown][] }
  | { t: "snapshots"; snapshots: FoldedState["snapshots"] };

/** The first part: what the image is of, and the state without its per-item maps and its snapshots' copies. */
type Head = ImageOf & Omit<FoldedState, "snapshots">;

/** An image as it is read a part at a time: its head (what collections are answered from) at once, the rest when asked for. */
export interface OpenedImage {
  head: Head;
  rest: Generator<Part>;
}

/** The image in `path`, its head read, if it `fits` (undefined: none, unreadable, of another format, world or journal). */
export function openImage(path: string, fits: (of: ImageOf) => boolean): OpenedImage | undefined {
  try {
    const opened = decodeParts(readFileSync(path));
    const { head } = opened;
    return head?.format === IMAGE_FORMAT && Array.isArray(head.chains) && fits(head) ? opened : undefined;
  } catch {
    return undefined;
  }
}

/** Every part after the head, put into it; answers the snapshots' copies (the last part). */
export function readRest({ head, rest }: OpenedImage): FoldedState["snapshots"] {
  let snapshots: FoldedState["snapshots"] = { count: 0, taken: [] };
  for (const part of rest) snapshots = applyPart(head, part) ?? snapshots;
  return snapshots;
}

/**
 * Writes an image so that a crash at any moment leaves the previous one or this one, whole: to a file of its own
 * (`partial`), synced, renamed over `path`, the directory synced. What failed to be written (a full disk) is removed,
 * and the previous image stays. Answers its size.
 */
export function writeImage(
  path: string,
  parts: Iterable<Buffer>,
  partial = `${path}.partial`,
  disk: Disk = nodeDisk,
): number {
  let size = 0;
  try {
    const fd = disk.open(partial, "w");
    try {
      for (const bytes of parts) {
        for (let done = 0; done < bytes.length;) done += disk.write(fd, bytes, done, bytes.length - done);
        size += bytes.length;
      }
      disk.fsync(fd);
    } finally {
      disk.close(fd);
    }
    disk.rename(partial, path);
  } catch (error) {
    disk.unlink(partial, true);
    throw error;
  }
  disk.syncDir(dirname(path));
  return size;
}

/**
 * An image of `state`, as its parts (each serialized when it is asked for), each a length and a v8-serialized value:
 * the head first.
 */
export function* encodeImage(of: Omit<ImageOf, "format">, state: FoldedState): Generator<Buffer> {
  const chains = state.chains.map(({ models, ...chain }) => ({
    ...chain,
    models: { ...models, items: new Map(), balances: new Map(), activity: new Map() },
  }));
  const head: Head = { format: IMAGE_FORMAT, ...of, chains, accounts: state.accounts };
  yield framed(head);
  for (const { chainId, models } of state.chains)
    for (const map of ITEM_MAPS) {
      const entries = [...(models[map] as Map<string, unknown>)];
      for (let at = 0; at < entries.length; at += SLICE)
        yield framed({ t: "map", chainId, map, entries: entries.slice(at, at + SLICE) });
    }
  yield framed({ t: "snapshots", snapshots: state.snapshots });
}

/** The head of parts read from `bytes`, and the rest, one at a time. */
export function decodeParts(bytes: Buffer): OpenedImage {
  let at = 0;
  const next = () => {
    const length = bytes.readUInt32BE(at);
    const value = deserialize(bytes.subarray(at + 4, at + 4 + length));
    at += 4 + length;
    return value;
  };
  const head = next() as Head;
  const rest = (function* () {
    while (at < bytes.length) yield next() as Part;
  })();
  return { head, rest };
}

/** Puts a part into the state whose head was read (its maps filled as they come). */
export function applyPart(state: { chains: FoldedChain[] }, part: Part): FoldedState["snapshots"] | undefined {
  if (part.t === "snapshots") return part.snapshots;
  const models = state.chains.find((chain) => chain.chainId === part.chainId)!.models;
  const map = models[part.map] as Map<string, unknown>;
  for (const [key, value] of part.entries) map.set(key, value);
  return undefined;
}

function framed(value: unknown): Buffer {
  const body = serialize(value);
  const frame = Buffer.allocUnsafe(4 + body.length);
  frame.writeUInt32BE(body.length, 0);
  body.copy(frame, 4);
  return frame;
}
