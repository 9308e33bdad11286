import type { Hex } from "viem";
import type { Accounts } from "../accounts.ts";
import { revertChain, snapshotChain } from "../chain/actions/node-state.ts";
import type { ChainRegistry } from "../chain/registry.ts";
import type { ApiAccount } from "../config.ts";
import type { MetadataSnapshot, MetadataStore } from "../metadata/store.ts";
import { NodeCannot } from "../chain/node/refusal.ts";

interface Snapshot {
  /** The node's snapshot id on each chain (renewed after each revert: a node's snapshot is used up by it). */
  nodeIds: Map<number, Hex>;
  metadata: MetadataSnapshot;
  accounts: readonly ApiAccount[];
}

export interface SnapshotParts {
  chains: ChainRegistry;
  metadata: MetadataStore;
  accounts: Accounts;
}

/**
 * Snapshots of the whole simulator: every chain (the node's own snapshot), the read models
 * (an indexer checkpoint at the same head, which the index restores when the chain goes back),
 * the off-chain metadata and the API keys. The world as loaded is the snapshot `reset` returns to.
 */
export class Snapshots {
  readonly #parts: SnapshotParts;
  readonly #taken = new Map<string, Snapshot>();
  /** The world as loaded, or why there is none (a node given by --rpc-url that takes no snapshots). */
  #loaded: Snapshot | NodeCannot | undefined;
  #count = 0;

  constructor(parts: SnapshotParts) {
    this.#parts = parts;
  }

  /** Remembers the world as loaded, for `reset`. */
  async markLoaded(): Promise<void> {
    this.#loaded = await this.#take().catch((error: unknown) => {
      if (error instanceof NodeCannot) return error;
      throw error;
    });
  }

  async take(): Promise<string> {
    const id = String(++this.#count);
    this.#taken.set(id, await this.#take());
    return id;
  }

  has(id: string): boolean {
    return this.#taken.has(id);
  }

  /** Back to snapshot `id`; the snapshots taken after it are gone (the nodes dropped them). */
  async revert(id: string): Promise<void> {
    const snapshot = this.#taken.get(id)!;
    await this.#revertTo(snapshot);
    for (const later of [...this.#taken.keys()].filter((other) => Number(other) > Number(id))) this.#taken.delete(later);
  }

  /** Back to the world as loaded; every snapshot is gone. */
  async reset(): Promise<void> {
    if (this.#loaded instanceof NodeCannot) throw this.#loaded;
    await this.#revertTo(this.#loaded!);
    this.#taken.clear();
  }

  async #take(): Promise<Snapshot> {
    const { chains, metadata, accounts } = this.#parts;
    const nodeIds = new Map<number, Hex>();
    for (const chain of await chains.synced()) {
      await chain.indexer.checkpoint();
      nodeIds.set(chain.chainId, await snapshotChain(chain));
    }
    return { nodeIds, metadata: metadata.snapshot(), accounts: accounts.snapshot() };
  }

  async #revertTo(snapshot: Snapshot): Promise<void> {
    const { chains, metadata, accounts } = this.#parts;
    for (const chain of chains.all()) {
      if (!(await revertChain(chain, snapshot.nodeIds.get(chain.chainId)!))) throw new Error(`chain ${chain.chainId} refused to revert its snapshot`);
      snapshot.nodeIds.set(chain.chainId, await snapshotChain(chain));
    }
    metadata.restore(snapshot.metadata);
    accounts.restore(snapshot.accounts);
    await chains.synced();
  }
}
