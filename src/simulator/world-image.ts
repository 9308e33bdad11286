import { Accounts } from "../core/accounts.ts";
import { startBlockOf } from "../core/config.ts";
import { ChainRegistry } from "../chain/registry.ts";
import type { SimChain } from "../chain/sim-chain.ts";
import type { FoldedState } from "../journal/fold.ts";
import type { FoundImage } from "../journal/restore.ts";
import { liveState } from "../journal/state.ts";
import { WorldCache, worldCacheKey, worldImage } from "../world-cache/world-cache.ts";
import { replay, startChains, worldChains, type LoadInputs } from "./replay-world.ts";

/**
 * The cache and this world's key in it, when the world can be cached: a world with an id, on
 * in-process chains, whose collection uris do not name a port picked at random (they are on
 * chain, so such a world is never the same twice).
 */
export function worldCacheOf({ world, options, url }: Pick<LoadInputs, "world" | "options" | "url">) {
  if (!options.cacheDir || !world.id || options.nodeUrls.length > 0) return undefined;
  if (options.port === 0 && !options.publicUrl) return undefined;
  return {
    cache: new WorldCache(options.cacheDir, options.shippedWorldsDir),
    key: worldCacheKey(
      world.id(url),
      worldChains(world, options).map((chain) => ({ chainId: chain.chainId, startBlock: startBlockOf(chain) })),
    ),
  };
}

/**
 * The world as the world cache holds it (its image, the head read), if it does; its API keys are the world's own (the
 * cache keeps none: their wallets' keys may be given ones, --keys).
 */
export function cachedWorld(inputs: Pick<LoadInputs, "world" | "options" | "url">): FoundImage | undefined {
  const cache = worldCacheOf(inputs);
  const found = cache?.cache.open(cache.key);
  if (!found) return undefined;
  const head = { ...found.image.head, accounts: inputs.world.accounts };
  return { image: { ...found.image, head }, from: "cache", cachedIn: found.dir };
}

/**
 * Caches the world as the chains hold it now, for the next start: its image is taken at once (before anything else
 * may change the world), and written in the background (a simulator closing waits for it, so a short-lived one still
 * leaves its cache). Answers the write under way.
 */
export async function cacheTheWorld(
  { cache, key }: NonNullable<ReturnType<typeof worldCacheOf>>,
  chains: ChainRegistry,
): Promise<{ written: Promise<void> }> {
  const failed = (error: unknown) =>
    console.warn(`The world could not be cached in ${cache.dir}: ${(error as Error).message}`);
  try {
    const image = worldImage(key, await liveState(chains, new Accounts([])));
    const later = new Promise<void>((resolve) => setImmediate(resolve));
    return { written: later.then(() => cache.write(key, image)).catch(failed) };
  } catch (error) {
    failed(error);
    return { written: Promise.resolve() };
  }
}

/** Where the replayed chains' heads (their numbers or hashes) are not those of the image the answers came from. */
export async function headsDiffer(image: FoldedState, replayed: SimChain[]) {
  const heads = new Map(
    await Promise.all(
      replayed.map(async (chain) => {
        const head = await chain.publicClient.getBlock({ blockTag: "latest", cacheTime: 0 } as never);
        return [chain.chainId, { number: head.number, hash: head.hash }] as const;
      }),
    ),
  );
  return image.chains.flatMap(({ chainId, models, headHash }) => {
    const head = heads.get(chainId);
    const imaged = { number: BigInt(models.head.blockNumber), hash: headHash };
    return head?.number === imaged.number && head.hash === headHash ? [] : [{ chainId, image: imaged, replayed: head }];
  });
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
    const { written } = await cacheTheWorld(cache, chains);
    await written;
    if (!cache.cache.has(cache.key)) throw new Error(`the world was not written to ${cache.cache.dir}`);
    return "cached";
  } finally {
    await chains.close();
  }
}
