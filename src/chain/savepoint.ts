import type { Hex } from "viem";
import type { Accounts } from "../core/accounts.ts";
import type { ApiAccount } from "../core/config.ts";
import type { HandlesCopy, WorldHandles } from "../core/handles.ts";
import type { ChainIndexer } from "../indexer/indexer.ts";
import type { RequestProvider } from "./block-batcher.ts";
import { needCapability, nodeCannot } from "./node/capabilities.ts";
import type { NodeLink } from "./node/link.ts";
import type { NodeSnapshots } from "./node-snapshots.ts";

// The one way back: every change that may have to be undone (a block whose record is not durable yet, a control
// snapshot, a fragment, a time move) takes a savepoint first. Each chain keeps the node's snapshot (evm_snapshot); its
// index either holds still meanwhile (`heldSavepoint`: nothing past the head is read until the change is durable) or
// keeps a copy of its models at the head (`WorldSavepoint`, which the index restores when the chain goes back), and a
// world savepoint keeps the API keys and the world's handles beside them.

/** Where a change can be taken back to. */
export interface Savepoint {
  /** Every chain back to where it was, its index with it. */
  rollback(): Promise<void>;
  /** The change is over (kept, or rolled back): what the savepoint held is let go. */
  release(): void;
}

/**
 * Before a change to one in-process chain that is answered only once durable (a block, a call from outside): the node's
 * snapshot, and the index kept at the head it has (`hold`: a block not durable yet is never answered from). `reverted`
 * is told the snapshot id a rollback went back to.
 */
export async function heldSavepoint(
  provider: RequestProvider,
  indexer: ChainIndexer,
  reverted: (id: Hex) => void,
): Promise<Savepoint> {
  const head = Number(BigInt((await provider.request({ method: "eth_blockNumber", params: [] })) as Hex));
  const id = (await provider.request({ method: "evm_snapshot", params: [] })) as Hex;
  indexer.hold(head);
  return {
    rollback: async () => {
      await provider.request({ method: "evm_revert", params: [id] });
      reverted(id);
    },
    release: () => indexer.release(head),
  };
}

/**
 * Savepoints taken together, one after another (a time move on several chains; a chain that has none, a node we did not
 * start, is left out): rolled back the last first, released together.
 */
export async function allOf(takes: (() => Promise<Savepoint> | undefined)[]): Promise<Savepoint> {
  const points: Savepoint[] = [];
  for (const take of takes) {
    const point = await take();
    if (point) points.push(point);
  }
  return {
    rollback: async () => {
      for (const point of [...points].reverse()) await point.rollback();
    },
    release: () => points.forEach((point) => point.release()),
  };
}

/** What a world savepoint asks of a chain (a SimChain; named by shape, as SimChain takes its savepoints from here). */
export interface SavedChain {
  readonly chainId: number;
  readonly node: NodeLink | undefined;
  readonly snapshots: Pick<NodeSnapshots, "revertCount" | "holds">;
  readonly indexer: Pick<ChainIndexer, "checkpoint" | "checkpointCount" | "dropCheckpoints">;
  request(method: string, params?: unknown[], options?: { record?: boolean }): Promise<unknown>;
}

/** What a world savepoint returns to beside the chains. */
export interface WorldParts {
  chains: {
    get(chainId: number): SavedChain | undefined;
    read(): Promise<{ chain: SavedChain }[]>;
    /** The chain's index caught up with it (a node that does not answer: CHAIN_DOWN). */
    sync(chainId: number): Promise<void>;
  };
  accounts: Accounts;
  handles: WorldHandles;
}

/** One chain's part of a world savepoint: the node's snapshot (renewed by each rollback that keeps it). */
interface ChainPoint {
  chainId: number;
  /** The node's snapshot id. */
  id: Hex;
  /** The chain's revert count when it was taken (`NodeSnapshots.holds`). */
  mark: number;
  /** How many index checkpoints there were before its own. */
  checkpoints: number;
}

/**
 * The world as it was at one moment, to return to: each chain's node snapshot and a checkpoint of its index at the
 * same head (restored by the index when the chain goes back), the API keys and the world's handles. A control snapshot
 * keeps one (and may return to it again), a fragment takes one before it sends anything. A node without evm_snapshot
 * refuses when it is taken (NODE_CANNOT), so nothing is changed that could not be undone. Chains are found by id in
 * `parts.chains` when it is used, so a savepoint moves with the world's parts (`movedTo`).
 */
export class WorldSavepoint implements Savepoint {
  readonly #parts: WorldParts;
  readonly #points: ChainPoint[];
  readonly #accounts: readonly ApiAccount[];
  readonly #handles: HandlesCopy;

  private constructor(parts: WorldParts, points: ChainPoint[], accounts: readonly ApiAccount[], handles: HandlesCopy) {
    this.#parts = parts;
    this.#points = points;
    this.#accounts = accounts;
    this.#handles = handles;
  }

  /** A savepoint of `chainIds` (every chain by default, each caught up first) and of the API keys and handles. */
  static async take(parts: WorldParts, chainIds?: number[]): Promise<WorldSavepoint> {
    const chains =
      chainIds === undefined
        ? (await parts.chains.read()).map(({ chain }) => chain)
        : chainIds.map((chainId) => parts.chains.get(chainId)!);
    const points: ChainPoint[] = [];
    for (const chain of chains) {
      const checkpoints = chain.indexer.checkpointCount;
      await chain.indexer.checkpoint();
      const mark = chain.snapshots.revertCount;
      points.push({ chainId: chain.chainId, id: await snapshotOf(chain), mark, checkpoints });
    }
    return new WorldSavepoint(parts, points, parts.accounts.snapshot(), parts.handles.copy());
  }

  /** The same savepoint, returning `parts` to it from now on (the chains and keys a replay's snapshots become those of). */
  movedTo(parts: WorldParts): WorldSavepoint {
    const points = this.#points.map((point) => ({ ...point }));
    return new WorldSavepoint(parts, points, this.#accounts, this.#handles);
  }

  /** The chains that no longer hold it: an evm_revert since (from outside) went back to it or before it. */
  droppedOn(): number[] {
    return this.#points
      .filter(({ chainId, id, mark }) => !this.#parts.chains.get(chainId)!.snapshots.holds(id, mark))
      .map(({ chainId }) => chainId);
  }

  rollback(): Promise<void> {
    return this.returnTo({ keep: false }).then(() => undefined);
  }

  /**
   * Every chain back to the savepoint (its index with it), then the API keys and handles. With `keep`, it can be
   * returned to again (each node's snapshot, used up by the revert, is taken anew). Answers the first chain that refused
   * to go back (a node reverted past it from elsewhere), and goes no further.
   */
  async returnTo({ keep }: { keep: boolean }): Promise<number | undefined> {
    const { chains, accounts, handles } = this.#parts;
    for (const point of this.#points) {
      const chain = chains.get(point.chainId)!;
      if (!(await revertTo(chain, point.id))) return point.chainId;
      if (keep) Object.assign(point, { mark: chain.snapshots.revertCount, id: await snapshotOf(chain) });
    }
    accounts.restore(this.#accounts);
    handles.restore(this.#handles);
    for (const { chainId } of this.#points) await chains.sync(chainId);
    return undefined;
  }

  /** Its index checkpoints are let go (the node keeps its snapshot until a revert before it). */
  release(): void {
    for (const { chainId, checkpoints } of this.#points)
      this.#parts.chains.get(chainId)!.indexer.dropCheckpoints(checkpoints);
  }
}

/** The simulator's own calls: not recorded (the action that makes them is). */
export const quiet = { record: false };

/** The node's snapshot of the chain's state; `revertTo` returns to it (once: take another to return again). */
async function snapshotOf(chain: SavedChain): Promise<Hex> {
  needCapability(chain, "snapshots", "take a snapshot", "evm_snapshot");
  return (await chain.request("evm_snapshot", [], quiet)) as Hex;
}

/** Back to the node's snapshot `id`: false if an in-process chain no longer holds it (a node we did not start throws). */
async function revertTo(chain: SavedChain, id: Hex): Promise<boolean> {
  needCapability(chain, "snapshots", "revert to a snapshot", "evm_revert");
  const reverted = (await chain.request("evm_revert", [id], quiet)) as boolean;
  if (!reverted && chain.node)
    throw nodeCannot(
      chain.chainId,
      "revert to its snapshot",
      `the node at ${chain.node.rpc.shown} no longer holds snapshot ${id} (was it restarted?)`,
    );
  return reverted;
}
