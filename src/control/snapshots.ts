import type { Hex } from "viem";
import type { Accounts } from "../core/accounts.ts";
import { revertChain, snapshotChain } from "../chain/actions/node-state.ts";
import type { ChainRegistry } from "../chain/registry.ts";
import type { SimChain } from "../chain/sim-chain.ts";
import type { ApiAccount } from "../core/config.ts";
import { ApiError, apiError, ERRORS, isApiError } from "../core/errors.ts";
import type { HandlesCopy, WorldHandles } from "../core/handles.ts";

/** The node's snapshot of one chain: its id, and the chain's revert count when it was taken. */
interface NodeSnapshot {
  id: Hex;
  mark: number;
}

export interface Snapshot {
  /** Per chain (renewed after each revert: a node's snapshot is used up by it). */
  nodes: Map<number, NodeSnapshot>;
  accounts: readonly ApiAccount[];
  handles: HandlesCopy;
}

export interface SnapshotParts {
  chains: ChainRegistry;
  accounts: Accounts;
  handles: WorldHandles;
}

/** At most this many snapshots are kept (each holds a copy of the read models); one more is refused with 409. */
export const SNAPSHOT_LIMIT = 1000;

/**
 * Snapshots of the whole simulator: every chain (the node's own snapshot), the read models
 * (an indexer checkpoint at the same head, which the index restores when the chain goes back),
 * the API keys and the world's handles. The world as loaded is the snapshot `reset` returns to.
 * Ids count up from 1 again after a reset, so a journal replays them as they were given.
 */
export class Snapshots {
  readonly #parts: SnapshotParts;
  readonly #taken = new Map<string, Snapshot>();
  /** The world as loaded, or why there is none (a node given by --rpc-url that takes no snapshots). */
  #loaded: Snapshot | ApiError | undefined;
  #count = 0;

  constructor(parts: SnapshotParts) {
    this.#parts = parts;
  }

  /** The same snapshots, acting on `parts` from now on (the chains and keys a replay's snapshots become those of). */
  movedTo(parts: SnapshotParts): Snapshots {
    const moved = new Snapshots(parts);
    for (const [id, snapshot] of this.#taken) moved.#taken.set(id, snapshot);
    moved.#loaded = this.#loaded;
    moved.#count = this.#count;
    return moved;
  }

  /** Remembers the world as loaded, for `reset`. */
  async markLoaded(): Promise<void> {
    this.#loaded = await this.#take().catch((error: unknown) => {
      if (isApiError(error, ERRORS.NODE_CANNOT)) return error;
      throw error;
    });
  }

  /** The id the next snapshot gets; refused (409) when no more can be taken. */
  nextId(): string {
    if (this.#taken.size >= SNAPSHOT_LIMIT) {
      throw apiError(
        ERRORS.CONFLICT,
        { what: `${SNAPSHOT_LIMIT} snapshots are kept; no more can be taken` },
        {
          errors: [
            `revert to an earlier snapshot (the ones after it are dropped) or POST /_sim/reset, then take it again`,
          ],
        },
      );
    }
    return String(this.#count + 1);
  }

  /** Takes a snapshot under the next id, or under `id` (a journal's replay gives the id it recorded). */
  async take(id = this.nextId()): Promise<string> {
    this.#taken.set(id, await this.#take());
    this.#count = Math.max(this.#count, Number(id));
    return id;
  }

  has(id: string): boolean {
    return this.#taken.has(id);
  }

  /**
   * Back to snapshot `id`; the snapshots taken after it are gone (the nodes dropped them).
   * A snapshot a chain no longer holds (an evm_revert over JSON-RPC went back before it) is
   * forgotten and refused with 409, before any chain moves.
   */
  async revert(id: string): Promise<void> {
    const snapshot = this.check(id);
    for (const later of [...this.#taken.keys()].filter((other) => Number(other) > Number(id)))
      this.#taken.delete(later);
    await this.#revertTo(snapshot, `snapshot '${id}'`).catch((error: unknown) => {
      if (error instanceof ApiError) this.#taken.delete(id);
      throw error;
    });
  }

  /**
   * Snapshot `id`, if the chains can go back to it: 404 if there is none, 409 (and it is forgotten) if a chain dropped
   * it.
   */
  check(id: string): Snapshot {
    const snapshot = this.#taken.get(id);
    if (!snapshot) throw apiError(ERRORS.NOT_FOUND, { what: `Snapshot '${id}'` });
    const dropped = this.#chainsWithout(snapshot);
    if (dropped.length > 0) {
      this.#taken.delete(id);
      throw apiError(
        ERRORS.CONFLICT,
        { what: `Snapshot '${id}' is no longer held by the chains` },
        {
          errors: [
            `chain ${dropped.join(", ")} went back (evm_revert over JSON-RPC) to before snapshot '${id}' and dropped ` +
              `it; it is forgotten`,
          ],
        },
      );
    }
    return snapshot;
  }

  /** The world as loaded, if the chains can go back to it (409 if not). */
  checkReset(): Snapshot {
    if (this.#loaded instanceof ApiError) throw this.#loaded;
    const loaded = this.#loaded!;
    const dropped = this.#chainsWithout(loaded);
    if (dropped.length > 0) {
      throw apiError(
        ERRORS.CONFLICT,
        { what: "The world as loaded is no longer held by the chains" },
        {
          errors: [
            `chain ${dropped.join(", ")} went back (evm_revert over JSON-RPC) to before the world was loaded; ` +
              `restart the simulator instead`,
          ],
        },
      );
    }
    return loaded;
  }

  /** Back to the world as loaded; every snapshot is gone and ids start again at 1. */
  async reset(): Promise<void> {
    const loaded = this.checkReset();
    this.#taken.clear();
    this.#count = 0;
    await this.#revertTo(loaded, "the world as loaded");
  }

  #chainsWithout(snapshot: Snapshot): number[] {
    return this.#parts.chains
      .all()
      .filter((chain) => !chain.holdsSnapshot(...nodeOf(snapshot, chain)))
      .map((chain) => chain.chainId);
  }

  async #take(): Promise<Snapshot> {
    const { chains, accounts, handles } = this.#parts;
    const nodes = new Map<number, NodeSnapshot>();
    for (const { chain } of await chains.read()) {
      await chain.checkpoint();
      nodes.set(chain.chainId, await nodeSnapshot(chain));
    }
    return { nodes, accounts: accounts.snapshot(), handles: handles.copy() };
  }

  async #revertTo(snapshot: Snapshot, name: string): Promise<void> {
    const { chains, accounts, handles } = this.#parts;
    for (const chain of chains.all()) {
      // Only a node we did not start can refuse here: others may revert it without passing through us.
      if (!(await revertChain(chain, nodeOf(snapshot, chain)[0]))) {
        throw apiError(
          ERRORS.CONFLICT,
          { what: `Chain ${chain.chainId} no longer holds ${name}` },
          {
            errors: [`chain ${chain.chainId} refused to revert to ${name}: it was reverted past it from elsewhere`],
          },
        );
      }
      snapshot.nodes.set(chain.chainId, await nodeSnapshot(chain));
    }
    accounts.restore(snapshot.accounts);
    handles.restore(snapshot.handles);
    await chains.sync();
  }
}

function nodeOf(snapshot: Snapshot, chain: SimChain): [Hex, number] {
  const { id, mark } = snapshot.nodes.get(chain.chainId)!;
  return [id, mark];
}

async function nodeSnapshot(chain: SimChain): Promise<NodeSnapshot> {
  const mark = chain.revertCount;
  return { id: await snapshotChain(chain), mark };
}
