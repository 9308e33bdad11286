import type { Hex } from "viem";
import type { Accounts } from "../core/accounts.ts";
import { revertChain, snapshotChain } from "../chain/actions/node-state.ts";
import type { SimChain } from "../chain/sim-chain.ts";
import type { ApiAccount } from "../core/config.ts";
import type { HandlesCopy, WorldHandles } from "../core/handles.ts";

interface ChainMark {
  chain: SimChain;
  /** The node's snapshot of the chain. */
  snapshot: Hex;
  /** How many index checkpoints there were before this one's. */
  checkpoints: number;
}

/**
 * The world as it was before a fragment: each chain it touches (the node's snapshot, and a
 * checkpoint of the index at the same head, which it restores when the chain goes back), the API
 * keys and the handles. Taken before anything is sent; a node without evm_snapshot refuses here
 * (NODE_CANNOT), so nothing is sent that could not be undone.
 */
export class Savepoint {
  readonly #marks: ChainMark[];
  readonly #accounts: { live: Accounts; kept: readonly ApiAccount[] };
  readonly #handles: { live: WorldHandles; kept: HandlesCopy };

  private constructor(marks: ChainMark[], accounts: Accounts, handles: WorldHandles) {
    this.#marks = marks;
    this.#accounts = { live: accounts, kept: accounts.snapshot() };
    this.#handles = { live: handles, kept: handles.copy() };
  }

  static async take(chains: SimChain[], accounts: Accounts, handles: WorldHandles): Promise<Savepoint> {
    const marks: ChainMark[] = [];
    for (const chain of chains) {
      const checkpoints = await chain.checkpoint();
      marks.push({ chain, snapshot: await snapshotChain(chain), checkpoints });
    }
    return new Savepoint(marks, accounts, handles);
  }

  /** Every chain back to the savepoint, its index with it; the API keys and handles too. */
  async rollback(): Promise<void> {
    for (const { chain, snapshot, checkpoints } of this.#marks) {
      await revertChain(chain, snapshot);
      await chain.sync();
      chain.forgetCheckpoints(checkpoints);
    }
    this.#accounts.live.restore(this.#accounts.kept);
    this.#handles.live.restore(this.#handles.kept);
  }

  /**
   * The fragment is in: the index's checkpoint is no longer needed (the node keeps its snapshot until a revert before
   * it).
   */
  release(): void {
    for (const { chain, checkpoints } of this.#marks) chain.forgetCheckpoints(checkpoints);
  }
}
