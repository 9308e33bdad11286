import { deserialize, serialize } from "node:v8";
import type { ChainModels } from "../indexer/models.ts";
import type { FoldedChain, FoldedState } from "./fold.ts";

// A checkpoint is written in parts, so that a restart can answer from the first before it has read the
// rest: first what every collection answer needs (each chain's collections, holders, sales, listings
// and head, the API keys), then each chain's items, balances and histories in slices, and last the
// control snapshots' copies (only a fold needs those).

/** Per-item maps of a chain's models: read after the first part. */
const ITEM_MAPS = ["items", "balances", "activity"] as const;
type ItemMap = (typeof ITEM_MAPS)[number];

/** How many entries of a map go in one part (a part is read between answers: a few milliseconds each). */
const SLICE = 4_000;

export type Part =
  | { t: "map"; chainId: number; map: ItemMap; entries: [string, unknown][] }
  | { t: "snapshots"; snapshots: FoldedState["snapshots"] };

/** The first part: the state without its per-item maps and its snapshots' copies. */
export type Head<Extra> = Extra & Omit<FoldedState, "snapshots">;

/** The state as parts, each a length and a v8-serialized value: the head first. */
export function* encodeParts<Extra extends object>(extra: Extra, state: FoldedState): Generator<Buffer> {
  const chains = state.chains.map(({ models, ...chain }) => ({ ...chain, models: withoutItems(models) }));
  const head: Head<Extra> = { ...extra, chains, accounts: state.accounts };
  yield framed(head);
  for (const { chainId, models } of state.chains)
    for (const map of ITEM_MAPS)
      for (const entries of slices(models[map] as Map<string, unknown>))
        yield framed({ t: "map", chainId, map, entries });
  yield framed({ t: "snapshots", snapshots: state.snapshots });
}

/** The head of parts read from `bytes`, and the rest, one at a time. */
export function decodeParts<Extra>(bytes: Buffer): { head: Head<Extra>; rest: Generator<Part> } {
  let at = 0;
  const next = () => {
    const length = bytes.readUInt32BE(at);
    const value = deserialize(bytes.subarray(at + 4, at + 4 + length));
    at += 4 + length;
    return value;
  };
  const head = next() as Head<Extra>;
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

function withoutItems(models: ChainModels): ChainModels {
  return { ...models, items: new Map(), balances: new Map(), activity: new Map() };
}

function* slices<V>(map: ReadonlyMap<string, V>): Generator<[string, V][]> {
  let slice: [string, V][] = [];
  for (const entry of map) {
    slice.push(entry);
    if (slice.length === SLICE) {
      yield slice;
      slice = [];
    }
  }
  if (slice.length > 0) yield slice;
}

function framed(value: unknown): Buffer {
  const body = serialize(value);
  const frame = Buffer.allocUnsafe(4 + body.length);
  frame.writeUInt32BE(body.length, 0);
  body.copy(frame, 4);
  return frame;
}
