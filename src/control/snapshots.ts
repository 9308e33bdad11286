import { ApiError, conflict, ERRORS, found, isApiError } from "../core/errors.ts";
import { WorldSavepoint, type WorldParts } from "../chain/savepoint.ts";

/** At most this many snapshots are kept (each holds a copy of the read models); one more is refused with 409. */
export const SNAPSHOT_LIMIT = 1000;

/**
 * Snapshots of the whole simulator, each a savepoint of the world (chain/savepoint.ts): every
 * chain, its read models, the API keys and the world's handles. The world as loaded is the
 * snapshot `reset` returns to. Ids count up from 1 again after a reset, so a journal replays them
 * as they were given.
 */
export class Snapshots {
  readonly #parts: WorldParts;
  readonly #taken = new Map<string, WorldSavepoint>();
  /** The world as loaded, or why there is none (a node given by --rpc-url that takes no snapshots). */
  #loaded: WorldSavepoint | ApiError | undefined;
  #count = 0;

  constructor(parts: WorldParts) {
    this.#parts = parts;
  }

  /** The same snapshots, acting on `parts` from now on (the chains and keys a replay's snapshots become those of). */
  movedTo(parts: WorldParts): Snapshots {
    const moved = new Snapshots(parts);
    for (const [id, snapshot] of this.#taken) moved.#taken.set(id, snapshot.movedTo(parts));
    moved.#loaded = this.#loaded instanceof WorldSavepoint ? this.#loaded.movedTo(parts) : this.#loaded;
    moved.#count = this.#count;
    return moved;
  }

  /** Remembers the world as loaded, for `reset`. */
  async markLoaded(): Promise<void> {
    this.#loaded = await WorldSavepoint.take(this.#parts).catch((error: unknown) => {
      if (isApiError(error, ERRORS.NODE_CANNOT)) return error;
      throw error;
    });
  }

  /** The id the next snapshot gets; refused (409) when no more can be taken. */
  nextId(): string {
    if (this.#taken.size >= SNAPSHOT_LIMIT)
      throw conflict(
        `${SNAPSHOT_LIMIT} snapshots are kept; no more can be taken`,
        "revert to an earlier snapshot (the ones after it are dropped) or POST /_sim/reset, then take it again",
      );
    return String(this.#count + 1);
  }

  /** Takes a snapshot under the next id, or under `id` (a journal's replay gives the id it recorded). */
  async take(id = this.nextId()): Promise<string> {
    this.#taken.set(id, await WorldSavepoint.take(this.#parts));
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
    for (const later of this.#taken.keys()) if (Number(later) > Number(id)) this.#taken.delete(later);
    await this.#revertTo(snapshot, `snapshot '${id}'`).catch((error: unknown) => {
      if (error instanceof ApiError) this.#taken.delete(id);
      throw error;
    });
  }

  /**
   * Snapshot `id`, if the chains can go back to it: 404 if there is none, 409 (and it is forgotten) if a chain dropped
   * it.
   */
  check(id: string): WorldSavepoint {
    const snapshot = found(this.#taken.get(id), `Snapshot '${id}'`);
    if (snapshot.droppedOn().length > 0) this.#taken.delete(id);
    return held(snapshot, `Snapshot '${id}'`, `snapshot '${id}' and dropped it; it is forgotten`);
  }

  /** The world as loaded, if the chains can go back to it (409 if not). */
  checkReset(): WorldSavepoint {
    if (this.#loaded instanceof ApiError) throw this.#loaded;
    return held(this.#loaded!, "The world as loaded", "the world was loaded; restart the simulator instead");
  }

  /** Back to the world as loaded; every snapshot is gone and ids start again at 1. */
  async reset(): Promise<void> {
    const loaded = this.checkReset();
    this.#taken.clear();
    this.#count = 0;
    await this.#revertTo(loaded, "the world as loaded");
  }

  async #revertTo(snapshot: WorldSavepoint, name: string): Promise<void> {
    // Only a node we did not start can refuse here: others may revert it without passing through us.
    const refused = await snapshot.returnTo({ keep: true });
    if (refused === undefined) return;
    throw conflict(
      `Chain ${refused} no longer holds ${name}`,
      `chain ${refused} refused to revert to ${name}: it was reverted past it from elsewhere`,
    );
  }
}

/** `savepoint`, unless a chain went back (evm_revert over JSON-RPC) to before it and dropped it: 409. */
function held(savepoint: WorldSavepoint, what: string, after: string): WorldSavepoint {
  const dropped = savepoint.droppedOn();
  if (dropped.length > 0)
    throw conflict(
      `${what} is no longer held by the chains`,
      `chain ${dropped.join(", ")} went back (evm_revert over JSON-RPC) to before ${after}`,
    );
  return savepoint;
}
