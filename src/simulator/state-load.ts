import { BlockNotFoundError, type Address, type Hex } from "viem";
import { Accounts } from "../core/accounts.ts";
import { chainFacts } from "../chain/deploy.ts";
import { ChainRegistry } from "../chain/registry.ts";
import { SimChain } from "../chain/sim-chain.ts";
import { Control } from "../control/control.ts";
import { ChainIndexer } from "../indexer/indexer.ts";
import type { LogSource } from "../indexer/log-source.ts";
import { applyPart, type Part } from "../journal/checkpoint-parts.ts";
import type { FoldedChain, FoldedState } from "../journal/fold.ts";
import type { OpenedState } from "../journal/restore.ts";
import { cachedLogSource, headsOf } from "../world-cache/log-source.ts";
import { startChains, worldCacheOf, type LoadInputs, type WorldLoader } from "./load-world.ts";

/** The world as the world cache holds it, as the state a journal is folded on when it has no checkpoint yet. */
export async function cachedWorldState(loading: LoadInputs): Promise<FoldedState | undefined> {
  const cache = worldCacheOf(loading);
  const cached = cache?.cache.read(cache.key)?.world;
  if (!cached) return undefined;
  const chains = await Promise.all(
    cached.chains.map(async ({ chainId, contracts, ...rest }): Promise<FoldedChain> => {
      const indexer = new ChainIndexer(
        cachedLogSource({ chainId, contracts, ...rest }),
        chainFacts(chainId, contracts),
      );
      await indexer.sync();
      return { chainId, contracts, models: indexer.models, headHash: indexer.headHash };
    }),
  );
  return { chains, accounts: loading.world.accounts, snapshots: { count: 0, taken: [] } };
}

/** What the background replay of the journal gives the start once the chains hold everything. */
export interface ReplayedState {
  /** Took the replay's snapshots and keys: the journal can record from now on. */
  replayer: Control;
  replayed: number;
  failedAgain: number;
}

/**
 * Answers from a journal's folded state at once (its checkpoint and the lines after it), while the
 * chains start and replay the world and the whole journal in the background, into keys and
 * snapshots of their own. Once they are done, the chains run under the answers: the index
 * reads on from them (checking they hold the head it was folded to, and rebuilding from them if
 * not), and `done` takes over what the replay made before anything is written.
 */
export async function loadFromState(
  loading: LoadInputs,
  { journal, folded, rest }: OpenedState & { folded: FoldedState },
  done: (replayed: ReplayedState) => void,
): Promise<WorldLoader> {
  const { world, options, url, chains, control, abis } = loading;
  chains.register(
    folded.chains.map(
      (chain) =>
        new SimChain(
          chain.chainId,
          chain.contracts,
          abis,
          new ChainIndexer(foldedSource(chain), chainFacts(chain.chainId, chain.contracts), {}, chain),
        ),
    ),
  );
  control.parts.accounts.restore(folded.accounts);
  // The world's handles at once, read back from the folded index (the replay fills them again, fragments' too).
  await world.readBack?.({ url, chains }).catch(() => undefined);
  if (rest) chains.wholeOnce(readRest(folded, rest));
  let started: ChainRegistry | undefined;
  let aborted = false;
  const finish = async () => {
    started = new ChainRegistry((await startChains(loading)).chains);
    if (aborted) throw new Error("the simulator closed while its chains were loading the world");
    const accounts = new Accounts(world.accounts);
    // The world's handles are filled again by the replay (its seed and fragments), as the running world had them.
    const { handles } = control.parts;
    for (const chain of started.all()) chain.knowKeys((address: Address) => handles.keyOf(address));
    const replayer = new Control({
      accounts,
      handles,
      chains: started,
      baseUrl: () => url,
      writeTimeoutMs: options.mintTimeoutMs,
    });
    await world.seed({ url, chains: started });
    await started.sync();
    await replayer.loaded();
    // The journal's replay is not indexed: the folded index answers, and reads on from the chains once they hold it.
    for (const chain of started.all()) chain.stopIndexing();
    let replayed = 0;
    let failedAgain = 0;
    for await (const piece of journal.pieces()) {
      if (aborted) throw new Error("the simulator closed while its chains were replaying the journal");
      failedAgain += await replayer.replay(piece);
      replayed += piece.length;
    }
    await chains.whole();
    warnOfDifferences(folded, await headsOf(started.all()));
    for (const chain of started.all()) {
      const live = chains.get(chain.chainId)!;
      live.connect(chain.writer!);
      live.indexFromChain();
    }
    // The chains are the simulator's now, closed with it.
    started = undefined;
    control.parts.accounts.restore(accounts.snapshot());
    await chains.sync();
    if (aborted) throw new Error("the simulator closed while its chains were loading the world");
    done({ replayer, replayed, failedAgain });
  };
  const abort = async () => {
    aborted = true;
    await started?.close();
  };
  return { load: { source: "state" }, finish, abort, stopFollowing: () => {}, cached: () => Promise.resolve() };
}

/** Reads the rest of a checkpoint into the state answered from, a part at a time between answers. */
async function readRest(folded: FoldedState, rest: Generator<Part>): Promise<void> {
  for (const part of rest) {
    applyPart(folded, part);
    await new Promise((resolve) => setImmediate(resolve));
  }
}

/**
 * The index of a chain folded from the journal: its head is where the journal left it (the chains replay up to it
 * meanwhile).
 */
function foldedSource({ models, headHash }: FoldedChain): LogSource {
  const head = {
    number: BigInt(models.head.blockNumber),
    hash: headHash ?? ("0x" as Hex),
    timestamp: BigInt(models.head.timestamp),
  };
  return {
    latest: async () => head,
    async block(number) {
      if (number === head.number) return head;
      throw new BlockNotFoundError({ blockNumber: number });
    },
    logs: async () => [],
  };
}

/**
 * Where the replayed chains' heads differ from those the state was folded to: said, and the index rebuilt from the
 * chains.
 */
function warnOfDifferences(folded: FoldedState, heads: Map<number, { number: bigint; hash: Hex }>): void {
  for (const { chainId, models, headHash } of folded.chains) {
    const head = heads.get(chainId);
    if (head && head.number === BigInt(models.head.blockNumber) && head.hash === headHash) continue;
    console.warn(
      `chain ${chainId}: the journal's replay ends at block ${head?.number} ${head?.hash}, ` +
        `not at ${models.head.blockNumber} ${headHash} ` +
        "as its checkpoint and its records say: answers now come from the replayed chain (its index is rebuilt)",
    );
  }
}
