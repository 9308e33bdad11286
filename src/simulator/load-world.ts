import type { Abis } from "../core/abi.ts";
import { ContractsFile } from "../chain/node/contracts-file.ts";
import { checkAttachedWorld, followNodes, recordWorld } from "../chain/node/nodes.ts";
import { ChainRegistry } from "../chain/registry.ts";
import { chainFacts } from "../chain/deploy.ts";
import { SimChain } from "../chain/sim-chain.ts";
import { ChainIndexer } from "../indexer/indexer.ts";
import type { SimulatorOptions } from "../core/config.ts";
import type { Control } from "../control/control.ts";
import { worldCacheKey } from "../world-cache/key.ts";
import { cachedLogSource, captureWorld, headsOf } from "../world-cache/log-source.ts";
import { WorldCache, type CachedWorld } from "../world-cache/world-cache.ts";
import type { World } from "../scenario/world.ts";

/**
 * How a start got its world: replayed onto the chains first, or answered from the cache (or a --state journal's
 * checkpoint) while they replayed it.
 */
export interface LoadSource {
  source: "replay" | "cache" | "state";
  /** The cache folder, when the world cache is on. */
  cacheDir?: string;
  /** The folder the answers came from, when from the cache (the cache folder, or the worlds the package ships). */
  cachedIn?: string;
}

export interface LoadInputs {
  world: World;
  options: SimulatorOptions;
  abis: Abis;
  /** The simulator's base URL (the world's collection uris may name it). */
  url: string;
  /** Filled here with the chains (or their cached index). */
  chains: ChainRegistry;
  control: Control;
}

export interface WorldLoader {
  load: LoadSource;
  /** Replays the world in the background, if the answers came from the cache; resolves once the chains hold it. */
  finish(): Promise<void>;
  /** Stops a background replay (the simulator is closing). */
  abort(): Promise<void>;
  /** Stops following the nodes given by --rpc-url (blocks mined there by others). */
  stopFollowing(): void;
  /** Resolves once the world cache written in the background is on disk (or failed to be): its chains stay up until. */
  cached(): Promise<void>;
}

/**
 * Loads the world: starts the chains and replays it onto them, or, when this very world is
 * in the cache (`options.cacheDir`), indexes the cached logs at once and replays in the
 * background (`finish`). Either way the chains replay the world; a cached world only lets
 * reads start before they are done. If the chains then give other blocks than the cache
 * held, they win: the cache is rewritten and a warning says so. On a node attached with
 * --contracts nothing is replayed: what it holds off-chain is read back.
 */
export async function loadWorld(loading: LoadInputs): Promise<WorldLoader> {
  const { world, options, url, chains, abis } = loading;
  const cache = worldCacheOf(loading);
  // With --state the journal decides what is answered first (simulator/state-load.ts); the world is cached all the
  // same.
  const found = options.stateDir === undefined ? cache?.cache.read(cache.key) : undefined;
  const cached = found?.world;
  const load: LoadSource = {
    source: cached ? "cache" : "replay",
    ...(cache ? { cacheDir: cache.cache.dir } : {}),
    ...(found ? { cachedIn: found.dir } : {}),
  };
  if (!cached) {
    const contracts = options.contractsFile === undefined ? undefined : ContractsFile.open(options.contractsFile);
    const { chains: started, nodes } = await startChains(loading, contracts);
    chains.register(started);
    const worldId = world.id?.(url) ?? "a world without an id";
    checkAttachedWorld(nodes, contracts, worldId, options.stateDir);
    const attached = new Set(nodes.flatMap(({ chain, attached }) => (attached ? [chain.chainId] : [])));
    await replay(loading, chains, attached);
    await loading.control.loaded();
    if (contracts) await recordWorld(nodes, contracts, worldId);
    const caching = cache ? (await remember(cache, chains.all())).written : Promise.resolve();
    // Blocks mined by others on a node we did not start (or a reorg there) are indexed as they come.
    const stopFollowing = followNodes(
      nodes.map(({ chain }) => chain),
      options.pollIntervalMs,
    );
    return {
      load,
      finish: () => Promise.resolve(),
      abort: () => Promise.resolve(),
      stopFollowing,
      cached: () => caching,
    };
  }
  // The index of each chain, folded from the cache at once; the chains replay the world into it later.
  const indexes = new Map(
    cached.chains.map((chain) => [
      chain.chainId,
      new ChainIndexer(cachedLogSource(chain), chainFacts(chain.chainId, chain.contracts)),
    ]),
  );
  chains.register(
    cached.chains.map((chain) => new SimChain(chain.chainId, chain.contracts, abis, indexes.get(chain.chainId)!)),
  );
  await chains.sync();
  // Its handles at once, as the cache holds it; a cache that does not hold this world leaves them to the replay, which
  // finds the difference and says so (below).
  await world.readBack?.({ url, chains }).catch(() => undefined);
  // Folded: the index will not ask for these logs again (the chains come next), so they need not stay in memory
  // meanwhile.
  for (const chain of cached.chains) chain.logs.length = 0;
  let started: ChainRegistry | undefined;
  let aborted = false;
  let caching = Promise.resolve();
  const finish = async () => {
    // The chains replay the world into the index the answers already come from (its cached
    // source holds the head the replay makes, so no log is read twice); then the index reads
    // the chains, checking first that they hold that head: if not, it is rebuilt from them.
    started = new ChainRegistry((await startChains(loading, undefined, (chainId) => indexes.get(chainId))).chains);
    if (aborted) throw new Error("the simulator closed while its chains were loading the world");
    const differing = await replay(loading, started).then(
      () => differences(cached, started!),
      async (error: unknown) => {
        await started!.close();
        throw error;
      },
    );
    for (const chain of started.all()) {
      chains.get(chain.chainId)!.connect(chain.writer!);
      chains.get(chain.chainId)!.indexFromChain();
    }
    await chains.sync();
    await loading.control.loaded();
    if (differing.length > 0) {
      console.warn(
        `The cached world (${cache!.cache.dir}) differs from what the chains replayed (${differing.join("; ")}): ` +
          `answers now come from the chains, and the cache is rewritten.`,
      );
      caching = (await remember(cache!, chains.all())).written;
    }
  };
  const abort = async () => {
    aborted = true;
    await started?.close();
  };
  return { load, finish, abort, stopFollowing: () => {}, cached: () => caching };
}

/**
 * The cache and this world's key in it, when the world can be cached: a world with an id, on
 * in-process chains, whose collection uris do not name a port picked at random (they are on
 * chain, so such a world is never the same twice).
 */
export function worldCacheOf({
  world,
  options,
  url,
}: Pick<LoadInputs, "world" | "options" | "url">): { cache: WorldCache; key: string } | undefined {
  if (!options.cacheDir || !world.id || options.nodeUrls.length > 0) return undefined;
  if (options.port === 0 && !options.publicUrl) return undefined;
  return {
    cache: new WorldCache(options.cacheDir, options.shippedWorldsDir),
    key: worldCacheKey(
      world.id(url),
      options.chains.map(({ chainId }) => chainId),
    ),
  };
}

export async function startChains(
  { world, options, abis }: Pick<LoadInputs, "world" | "options" | "abis">,
  contracts?: ContractsFile,
  indexOf?: (chainId: number) => ChainIndexer | undefined,
) {
  // Hardhat loads here, not before: an answer from the cached world does not wait for it.
  const { startChains: start } = await import("../chain/start.ts");
  const walletKeys = [...world.accounts.map((account) => account.walletKey), ...world.actorKeys];
  return start(
    {
      chains: options.chains,
      nodeUrls: options.nodeUrls,
      walletKeys,
      ...(world.genesisTime ? { genesisTime: world.genesisTime } : {}),
      ...(world.chainIds ? { worldChains: new Set(world.chainIds) } : {}),
      ...(options.givenKeys ? { given: options.givenKeys } : {}),
      ...(contracts ? { contracts } : {}),
    },
    abis,
    indexOf,
  );
}

export async function replay(
  { world, url }: Pick<LoadInputs, "world" | "url">,
  chains: ChainRegistry,
  attached?: ReadonlySet<number>,
): Promise<void> {
  await world.seed({ url, chains, ...(attached && attached.size > 0 ? { attached } : {}) });
  await chains.sync();
}

/** Where the replayed chains disagree with the cached ones (their heads' numbers or hashes). */
async function differences(cached: CachedWorld, started: ChainRegistry): Promise<string[]> {
  const heads = await headsOf(started.all());
  const found: string[] = [];
  for (const { chainId, head } of cached.chains) {
    const replayed = heads.get(chainId);
    if (replayed?.number !== head.number || replayed.hash !== head.hash)
      found.push(
        `chain ${chainId}: head ${head.number} ${head.hash} cached, ${replayed ? `${replayed.number} ${replayed.hash}` : "no chain"} replayed`,
      );
  }
  for (const chainId of heads.keys())
    if (!cached.chains.some((chain) => chain.chainId === chainId)) found.push(`chain ${chainId} is not in the cache`);
  return found;
}

/**
 * Caches the world as the chains hold it now, for the next start. Answers once the heads are
 * taken (before anything else may write), with the background work: the logs up to those heads
 * read and written (a simulator closing waits for it, so a short-lived one still leaves its cache).
 */
async function remember(
  { cache, key }: { cache: WorldCache; key: string },
  chains: SimChain[],
): Promise<{ written: Promise<void> }> {
  const failed = (error: unknown) =>
    console.warn(`The world could not be cached in ${cache.dir}: ${(error as Error).message}`);
  try {
    const heads = await headsOf(chains);
    return { written: captureWorld(chains, heads).then((world) => void (world && cache.write(key, world)), failed) };
  } catch (error) {
    failed(error);
    return { written: Promise.resolve() };
  }
}

/**
 * Replays the world onto chains of its own, serving nothing, and writes it to the world cache (or to `into`, a folder
 * of worlds cached ahead) under the key a start with these options looks for. "cached", "already" there, or
 * "uncacheable" (a world the cache never holds: see worldCacheOf).
 */
export async function cacheWorldAhead(
  inputs: Pick<LoadInputs, "world" | "options" | "abis" | "url">,
  into?: string,
): Promise<"cached" | "already" | "uncacheable"> {
  const found = worldCacheOf(inputs);
  if (!found) return "uncacheable";
  const cache = { cache: into === undefined ? found.cache : new WorldCache(into), key: found.key };
  if (cache.cache.has(cache.key)) return "already";
  const chains = new ChainRegistry((await startChains(inputs)).chains);
  try {
    await replay(inputs, chains);
    await (
      await remember(cache, chains.all())
    ).written;
    if (!cache.cache.has(cache.key)) throw new Error(`the world was not written to ${cache.cache.dir}`);
    return "cached";
  } finally {
    await chains.close();
  }
}
