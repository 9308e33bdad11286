import { Accounts } from "../core/accounts.ts";
import { ContractsFile } from "../chain/node/contracts-file.ts";
import { checkAttachedWorld, followNodes, recordWorld } from "../chain/node/nodes.ts";
import { ChainRegistry } from "../chain/registry.ts";
import { chainFacts } from "../chain/deploy.ts";
import { SimChain } from "../chain/sim-chain.ts";
import { Control } from "../control/control.ts";
import { ChainIndexer } from "../indexer/indexer.ts";
import { imageHead } from "../indexer/log-source.ts";
import { applyPart, type Part } from "../journal/image.ts";
import type { FoldedState } from "../journal/fold.ts";
import type { Journal } from "../journal/journal.ts";
import type { LoadedImage } from "../journal/restore.ts";
import { replayJournal, type RestoredState } from "../journal/state.ts";
import { replay, startChains, type LoadInputs } from "./replay-world.ts";
import { cacheTheWorld, headsDiffer, worldCacheOf } from "./world-image.ts";

export type { LoadInputs } from "./replay-world.ts";

/**
 * How a start got its world: replayed onto the chains first, or answered from an image (the world cache's, or a
 * --state journal's checkpoint) while they replayed it.
 */
export interface LoadSource {
  source: "replay" | "cache" | "state";
  /** The cache folder, when the world cache is on. */
  cacheDir?: string;
  /** The folder the answers came from, when from the cache (the cache folder, or the worlds the package ships). */
  cachedIn?: string;
}

export interface WorldLoader {
  load: LoadSource;
  /** Replays the world in the background, if the answers came from an image; resolves once the chains hold it. */
  finish(): Promise<void>;
  /** Stops a background replay (the simulator is closing). */
  abort(): Promise<void>;
  /** Stops following the nodes given by --rpc-url (blocks mined there by others). */
  stopFollowing(): void;
  /** Resolves once the world cache written in the background is on disk (or failed to be): its chains stay up until. */
  cached(): Promise<void>;
}

/** A journal replayed (`replayed`): it records every change from now on. */
export type Recorded = (journal: Journal, restored: RestoredState) => void;

/**
 * Start-up (a): starts the chains (or connects to the nodes of --rpc-url), replays the world onto them (on a chain
 * attached with --contracts nothing is sent: where the world landed is read back) and indexes it, caches it, then
 * replays the journal of --state (`journalOf`, opened once the chains are known), all before anything is answered.
 */
export async function replayFirst(
  loading: LoadInputs,
  journalOf: (chainIds: number[]) => Journal | undefined,
  recorded: Recorded,
): Promise<WorldLoader> {
  const { world, options, url, chains, control } = loading;
  const cache = worldCacheOf(loading);
  const contracts = options.contractsFile === undefined ? undefined : ContractsFile.open(options.contractsFile);
  const { chains: started, nodes } = await startChains(loading, contracts);
  chains.register(started);
  const worldId = world.id?.(url) ?? "a world without an id";
  checkAttachedWorld(nodes, contracts, worldId, options.stateDir);
  const attached = new Set(nodes.flatMap(({ chain, attached }) => (attached ? [chain.chainId] : [])));
  await replay(loading, chains, attached);
  await control.loaded();
  if (contracts) await recordWorld(nodes, contracts, worldId);
  // The world as loaded, cached before anything changes it (the journal, next).
  const caching = cache ? (await cacheTheWorld(cache, chains)).written : Promise.resolve();
  // Blocks mined by others on a node we did not start (or a reorg there) are indexed as they come.
  const followed = nodes.map(({ chain }) => chain);
  const stopFollowing = followNodes(followed, options.pollIntervalMs);
  const journal = journalOf(chains.ids());
  if (journal) recorded(journal, { ...(await replayJournal(journal, control)), answeredFrom: "replay" });
  return {
    load: { source: "replay", ...(cache ? { cacheDir: cache.cache.dir } : {}) },
    finish: () => Promise.resolve(),
    abort: () => Promise.resolve(),
    stopFollowing,
    cached: () => caching,
  };
}

/**
 * Start-up (b): answers from `image` at once (the world cache's image of the world, or a journal's checkpoint, with
 * the journal's lines after it folded on), while (a) runs in the background on chains of their own: the world replayed,
 * then the whole journal (with a control of their own, its snapshots and keys). Then each chain's writer joins the
 * index that answers, which reads the chain from then on (checking first that it holds the image's head; if not, it is
 * rebuilt from the chain and a warning says so), and the control takes over the replay's snapshots and keys.
 */
export async function fromImage(
  loading: LoadInputs,
  image: LoadedImage,
  journal: Journal | undefined,
  recorded: Recorded,
): Promise<WorldLoader> {
  const { world, options, url, chains, control, abis } = loading;
  const indexes = new Map(
    image.state.chains.map(({ chainId, contracts, models, headHash }) => [
      chainId,
      new ChainIndexer(imageHead(models, headHash), chainFacts(chainId, contracts), {}, { models, headHash }),
    ]),
  );
  chains.register(
    image.state.chains.map(({ chainId, contracts }) => new SimChain(chainId, contracts, abis, indexes.get(chainId)!)),
  );
  control.parts.accounts.restore(image.state.accounts);
  // The world's handles, read back from the index once it is whole, as from chains that hold it already (the replay
  // fills them again, fragments' too).
  const readBack = () => world.seed({ url, chains, attached: new Set(chains.ids()) }).catch(() => undefined);
  if (image.rest) chains.wholeOnce(readParts(image.state, image.rest).then(readBack));
  else await readBack();
  // With no journal to replay, the chains replay the world into the index that answers (it holds their head already:
  // nothing is read twice); a journal's replay has an index of its own, which follows only the world.
  const entries = journal !== undefined && journal.bytes > journal.headerBytes;
  let started: ChainRegistry | undefined;
  let aborted = false;
  let caching = Promise.resolve();
  const finish = async () => {
    await chains.whole();
    const shared = entries ? undefined : (chainId: number) => indexes.get(chainId);
    started = new ChainRegistry((await startChains(loading, undefined, shared)).chains);
    if (aborted) throw new Error("the simulator closed while its chains were loading the world");
    const accounts = new Accounts(world.accounts);
    const replayer = new Control({ ...control.parts, accounts, chains: started, baseUrl: () => url });
    await replay(loading, started);
    await replayer.loaded();
    // The journal's replay is not indexed: the image answers, and its index reads on from the chains once they hold it.
    if (entries) for (const chain of started.all()) chain.stopIndexing();
    const replayed = journal ? await replayJournal(journal, replayer) : { replayed: 0, failedAgain: 0 };
    const differing = await headsDiffer(image.state, started.all());
    for (const chain of started.all()) {
      const live = chains.get(chain.chainId)!;
      live.connect(chain.writer!);
      live.indexFromChain();
    }
    // The chains are the simulator's now, closed with it.
    started = undefined;
    control.parts.accounts.restore(accounts.snapshot());
    control.adoptSnapshots(replayer);
    await chains.sync();
    if (aborted) throw new Error("the simulator closed while its chains were loading the world");
    if (differing.length > 0) caching = warnOfDifferences(loading, journal, differing);
    if (journal) recorded(journal, { ...replayed, answeredFrom: image.from });
  };
  const abort = async () => {
    aborted = true;
    await started?.close();
  };
  const load: LoadSource = journal
    ? { source: "state" }
    : { source: "cache", ...(options.cacheDir ? { cacheDir: options.cacheDir } : {}), cachedIn: image.cachedIn! };
  return { load, finish, abort, stopFollowing: () => {}, cached: () => caching };
}

type HeadDifference = Awaited<ReturnType<typeof headsDiffer>>[number];

/** Reads the rest of an image into the state answered from, a part at a time between answers. */
async function readParts(state: FoldedState, rest: Generator<Part>): Promise<void> {
  for (const part of rest) {
    applyPart(state, part);
    await new Promise((resolve) => setImmediate(resolve));
  }
}

/**
 * The replayed chains' heads differ from the image's: said, and the cache rewritten if it was the world cache's (a
 * journal's replay that ends elsewhere is told as such). Answers the rewrite under way.
 */
async function warnOfDifferences(loading: LoadInputs, journal: Journal | undefined, differing: HeadDifference[]) {
  const cache = worldCacheOf(loading);
  const at = (head: HeadDifference["image"] | undefined) => (head ? `${head.number} ${head.hash}` : "no chain");
  if (journal || !cache) {
    for (const { chainId, image, replayed } of differing)
      console.warn(
        `chain ${chainId}: the journal's replay ends at block ${at(replayed)}, not at ${at(image)} as its checkpoint ` +
          "and its records say: answers now come from the replayed chain (its index is rebuilt)",
      );
    return Promise.resolve();
  }
  const told = differing.map(
    ({ chainId, image, replayed }) => `chain ${chainId}: head ${at(image)} cached, ${at(replayed)} replayed`,
  );
  console.warn(
    `The cached world (${cache.cache.dir}) differs from what the chains replayed (${told.join("; ")}): ` +
      `answers now come from the chains, and the cache is rewritten.`,
  );
  return (await cacheTheWorld(cache, loading.chains)).written;
}
