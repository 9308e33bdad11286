import type { Hex, Log } from "viem";
import { Accounts, apiKeyAccount } from "../core/accounts.ts";
import type { CoreContracts } from "../chain/deploy.ts";
import type { ApiAccount } from "../core/config.ts";
import { advanceHead, applyLogs } from "../indexer/apply.ts";
import { decodeLogs, type indexedEventsAbi } from "../indexer/log-source.ts";
import type { ChainModels } from "../indexer/models.ts";
import type { JournalEntry, LogRecord, Mined } from "./entries.ts";

/** One chain as its index stood at some line of the journal: the read models and the head's hash. */
export interface FoldedChain {
  chainId: number;
  contracts: CoreContracts;
  models: ChainModels;
  headHash: Hex | undefined;
}

/** What a control snapshot keeps, for a revert further on. */
interface FoldedSnapshot {
  chains: Omit<FoldedChain, "contracts">[];
  accounts: ApiAccount[];
}

/**
 * What the simulator answers from, as of a line of the journal, without its chains: every chain's index, the API keys,
 * the control snapshots.
 */
export interface FoldedState {
  chains: FoldedChain[];
  accounts: ApiAccount[];
  snapshots: { count: number; taken: [string, FoldedSnapshot][] };
}

/**
 * Why the fold stopped: a line it cannot take without the chains (a rewind it holds no copy for, a record of the first
 * format). Only a replay knows what follows; a start replays, the checkpointer waits for the simulator's own.
 */
export interface NotFoldable {
  notFoldable: string;
}

type EventsAbi = ReturnType<typeof indexedEventsAbi>;

/**
 * Folds journal lines onto a state, as the running simulator did when it made them: the logs each
 * recorded block or call made go through the index's reducers, API keys as they were made, control snapshots kept and
 * reverted to. Answers why not (NotFoldable) at a line it cannot take.
 */
export function foldEntries(
  state: FoldedState,
  entries: Iterable<JournalEntry>,
  abi: EventsAbi,
): FoldedState | NotFoldable {
  const chains = new Map(state.chains.map((chain) => [chain.chainId, chain]));
  const accounts = new Accounts(state.accounts);
  let { count, taken } = { count: state.snapshots.count, taken: new Map(state.snapshots.taken) };
  const chainOf = (chainId: number) => chains.get(chainId)!;
  for (const entry of entries) {
    const why = whyNotFoldable(entry, (chainId) => chains.has(chainId));
    if (why) return { notFoldable: why };
    switch (entry.t) {
      case "block":
      case "rpc":
        if (entry.mined) applyMined(chainOf(entry.chainId), entry.mined, abi);
        break;
      case "time":
        entry.chainIds.forEach((chainId, i) => applyMined(chainOf(chainId), { head: entry.heads![i]!, logs: [] }, abi));
        break;
      case "apiKey":
        accounts.add(apiKeyAccount(entry.name, entry.apiKey));
        break;
      case "snapshot":
        taken.set(entry.id, {
          chains: [...chains.values()].map(({ contracts: _, ...chain }) => ({
            ...chain,
            models: structuredClone(chain.models),
          })),
          accounts: accounts.snapshot().slice(),
        });
        count = Math.max(count, Number(entry.id));
        break;
      case "revert": {
        const snapshot = taken.get(entry.id);
        if (!snapshot) return { notFoldable: `a revert to snapshot '${entry.id}', taken before the folded state` };
        taken = new Map([...taken].filter(([id]) => Number(id) <= Number(entry.id)));
        for (const { chainId, models, headHash } of snapshot.chains)
          Object.assign(chainOf(chainId), { models: restored(chainOf(chainId).models, models), headHash });
        accounts.restore(snapshot.accounts);
        break;
      }
    }
  }
  return {
    chains: [...chains.values()],
    accounts: accounts.list(),
    snapshots: { count, taken: [...taken] },
  };
}

/** Why a line cannot be folded without the chains (undefined: it can). */
function whyNotFoldable(entry: JournalEntry, holds: (chainId: number) => boolean): string | undefined {
  if (entry.t === "rpc" && !entry.mined) {
    if (entry.method === "evm_revert") return `a JSON-RPC evm_revert on chain ${entry.chainId}`;
    if (entry.at !== undefined) return `a JSON-RPC ${entry.method} recorded without its blocks`;
  }
  if (entry.t === "tx" && !entry.raw) return "a transaction recorded without its block (the journal's first format)";
  if (entry.t === "time" && !entry.heads) return "a time move recorded without its heads";
  // Its logs are not in its line: only its replay (through the same code) knows what it did.
  if (entry.t === "scenario") return "a fragment applied to the world (POST /_sim/scenario)";
  const chainIds = entry.t === "time" ? entry.chainIds : "mined" in entry && entry.mined ? [entry.chainId] : [];
  const unheld = chainIds.find((chainId) => !holds(chainId));
  return unheld === undefined ? undefined : `the journal records chain ${unheld}, which the folded state does not hold`;
}

/**
 * A snapshot's models, brought back as the index brings back a checkpoint: a copy, versioned past every earlier view.
 */
function restored(current: ChainModels, kept: ChainModels): ChainModels {
  return { ...structuredClone(kept), facts: current.facts, version: current.version + 1 };
}

function applyMined(chain: FoldedChain, { head: [number, hash, time], logs }: Mined, abi: EventsAbi): void {
  const blockTimes = new Map<bigint, number>(logs.map(([block, blockTime]) => [BigInt(block), blockTime]));
  applyLogs(chain.models, decodeLogs(abi, logs.map(asLog)), blockTimes);
  advanceHead(chain.models, { number: BigInt(number), timestamp: BigInt(time) });
  chain.headHash = hash;
}

function asLog([block, , address, topics, data, logIndex, transactionHash]: LogRecord): Log {
  return {
    address,
    topics: topics as Log["topics"],
    data,
    blockNumber: BigInt(block),
    logIndex,
    transactionHash,
  } as unknown as Log;
}
