import type { Accounts } from "../core/accounts.ts";
import type { ChainRegistry } from "../chain/registry.ts";
import type { SimChain } from "../chain/sim-chain.ts";
import type { ChainModels } from "../indexer/models.ts";
import type { JournalEntry } from "./entries.ts";
import type { FoldedState } from "./fold.ts";
import type { Journal } from "./journal.ts";

/** What a start with --state found in its journal. */
export interface RestoredState {
  /** Entries replayed from the journal onto the chains. */
  replayed: number;
  /** Recorded writes that failed again on replay (they had failed, mined, the first time too). */
  failedAgain: number;
  /**
   * What was answered from while the chains replayed it: the journal's checkpoint (with the lines after it folded on),
   * the cached world with every line folded on, or nothing (it was replayed first).
   */
  answeredFrom: "checkpoint" | "cache" | "replay";
}

/**
 * Replays the journal onto the world just loaded, a piece at a time, before anything is answered, through `control`
 * (the control API: the journal knows nothing more of it), whose replay answers how many recorded writes failed again.
 */
export async function replayJournal(
  journal: Journal,
  control: { replay(entries: JournalEntry[]): Promise<number> },
): Promise<Omit<RestoredState, "answeredFrom">> {
  let replayed = 0;
  let failedAgain = 0;
  for await (const piece of journal.pieces()) {
    failedAgain += await control.replay(piece);
    replayed += piece.length;
  }
  return { replayed, failedAgain };
}

/** What a checkpoint written now holds: the simulator's index and keys as they are (no control snapshot's copy). */
export async function liveState(chains: ChainRegistry, accounts: Accounts): Promise<FoldedState> {
  const indexed = async (chain: SimChain) => {
    const { models, headHash } = await chain.indexed();
    // Serialized as they are, in the journal's turn (nothing changes them meanwhile), and never changed.
    return { chainId: chain.chainId, contracts: chain.contracts, models: models as ChainModels, headHash };
  };
  return {
    chains: await Promise.all(chains.all().map(indexed)),
    accounts: accounts.list(),
    snapshots: { count: 0, taken: [] },
  };
}
