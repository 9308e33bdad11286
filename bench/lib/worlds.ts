import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ROOT, type Child } from "./processes.ts";

/** How to start the simulator with one world, and how large that world is meant to be. */
export interface WorldSpec {
  name: string;
  scale: number;
  /** Arguments after `node`: the entry point and its flags (the port is appended). */
  args: string[];
  /** The project tree to run (default: this one); bench/compare.ts points it at a scratch copy. */
  cwd?: string;
}

/**
 * The world cache the benchmark's simulators use: its own, emptied at the start of a run, so the first start of each
 * world is a cold one. BENCH_CACHE_DIR gives another, so two runs on one machine do not empty each other's.
 */
export const BENCH_CACHE_DIR = process.env.BENCH_CACHE_DIR || join(tmpdir(), "nft-simulator-bench-cache");

/**
 * How the benchmark starts the simulator: what `npm run simulate` runs (the bundle,
 * dist/bundle/simulate.js, which prebench brings up to date), with the collection uris of the
 * default port whatever port it gets (so a second start is the same world, as for a user who
 * starts it again), and the benchmark's own world cache.
 */
export const SIMULATE = [
  ...simulateCommand(),
  "--no-rpc",
  "--public-url",
  "http://127.0.0.1:3000",
  "--cache",
  BENCH_CACHE_DIR,
];

/** What `npm run simulate` runs after `node` (its Node flags and the bundle), as the tree's package.json says. */
export function simulateCommand(tree: string = ROOT): string[] {
  const { scripts } = JSON.parse(readFileSync(join(tree, "package.json"), "utf8")) as {
    scripts: Record<string, string>;
  };
  const [node, ...args] = scripts.simulate!.split(/\s+/);
  if (node !== "node") throw new Error(`package.json's simulate script does not start with node: ${scripts.simulate}`);
  return args;
}

/**
 * The default world is what `npm run simulate` loads (fixtures/default-world.json); the
 * larger one is made by the fixture generator (src/scenario/generate/cli.ts --scale N) into a
 * temporary file, so both come from the same seeded generator.
 */
export function worlds(scale: number): { base: WorldSpec; scaled: WorldSpec } {
  return {
    base: { name: "default world", scale: 1, args: SIMULATE },
    scaled: { name: `generated world ×${scale}`, scale, args: [...SIMULATE, "--fixture", scaledWorldFile(scale)] },
  };
}

/**
 * The world run from a copy of the project (this one by default; --tree, bench/compare.ts): its
 * own bundle, brought up to date first; a copy from before the bundle runs its sources as it did then.
 */
export function inTree(world: WorldSpec, cwd: string = ROOT): WorldSpec {
  if (!existsSync(join(cwd, "scripts/bundle.mjs"))) {
    const fixture = world.args.indexOf("--fixture");
    return {
      ...world,
      cwd,
      args: ["src/cli/simulate.ts", "--no-rpc", ...(fixture >= 0 ? world.args.slice(fixture, fixture + 2) : [])],
    };
  }
  execFileSync(process.execPath, ["scripts/bundle.mjs"], { cwd, stdio: "pipe" });
  // That tree's own command (its Node flags too), with this run's arguments.
  return { ...world, cwd, args: [...simulateCommand(cwd), ...world.args.slice(simulateCommand().length)] };
}

/**
 * What `npm install` runs to cache the default world ahead (its last step, src/cli/cache-world.ts from the bundle),
 * with this world's flags, after `node`; undefined for a tree that caches nothing ahead.
 */
export function cacheAheadArgs(world: WorldSpec): string[] | undefined {
  const tree = world.cwd ?? ROOT;
  const [flags, bundle] = [simulateCommand(tree).slice(0, -1), simulateCommand(tree).at(-1)!];
  const ahead = bundle.replace(/simulate\.js$/, "cache-world.js");
  if (ahead === bundle || !existsSync(join(tree, ahead))) return undefined;
  return [...flags, ahead, ...world.args.slice(simulateCommand(tree).length)];
}

export function scaledWorldFile(scale: number): string {
  return join(tmpdir(), `nft-simulator-bench-world-x${scale}.json`);
}

/** Writes the ×scale world with the project's generator (same seed as the default world). */
export function generateScaledWorld(scale: number): void {
  execFileSync(
    process.execPath,
    ["src/scenario/generate/cli.ts", "--scale", String(scale), "--out", scaledWorldFile(scale)],
    { cwd: ROOT, stdio: "pipe" },
  );
}

export interface ApiKey {
  apiKey: string;
  wallet: string;
}

export interface CollectionInfo {
  address: string;
  chainId: number;
  genre: string;
  ownerAddress: string;
  volume_all: number;
}

/** What the benchmark needs to know about a running world, learned through its API. */
export interface WorldFacts {
  collections: CollectionInfo[];
  hot: { collection: string; tokenId: number; events: number };
  mint: { apiKey: string; wallet: string; collection: string; chainId: number };
}

/** What the benchmark mints unless told otherwise. */
export const BENCH_ITEM = { name: "Bench Sword", initialSupply: 5 };

/**
 * The benchmark's mint on `base`: POST /api/v2/item/new with the world's minting key, to its own wallet, as `load()`
 * (or `fetch`, with the URL apart) takes it.
 */
export function mintRequest(
  base: string,
  mint: WorldFacts["mint"],
  item: { name: string; initialSupply: number } = BENCH_ITEM,
) {
  return {
    url: `${base}/api/v2/item/new?apiKey=${encodeURIComponent(mint.apiKey)}`,
    method: "POST" as const,
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ collectionAddress: mint.collection, recipient: mint.wallet, chainId: mint.chainId, item }),
  };
}

/** API keys and their developer wallets, as the start-up banner prints them. */
export function apiKeysFromBanner(output: string): ApiKey[] {
  return [...output.matchAll(/^\s{4}(\S+)\s+\S+\s+(0x[0-9a-fA-F]{40})\s*$/gm)].map(([, apiKey, wallet]) => ({
    apiKey: apiKey!,
    wallet: wallet!.toLowerCase(),
  }));
}

export async function getJson<T = any>(url: string): Promise<T> {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`GET ${url}: ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
}

async function allCollections(base: string): Promise<CollectionInfo[]> {
  const all: CollectionInfo[] = [];
  for (let page = 1; ; page++) {
    const { collections, count } = await getJson<{ collections: CollectionInfo[]; count: number }>(
      `${base}/api/v2/collection?perPage=100&page=${page}`,
    );
    all.push(...collections);
    if (all.length >= count || collections.length === 0) return all;
  }
}

/** How many events an item's history holds (binary search over pages of 100). */
export async function countEvents(base: string, collection: string, tokenId: number): Promise<number> {
  const size = async (page: number) =>
    (
      await getJson<{ events: unknown[] }>(
        `${base}/api/v2/item/events/${collection}/${tokenId}?perPage=100&page=${page}`,
      )
    ).events.length;
  let low = 1;
  let high = 2;
  while ((await size(high)) === 100) [low, high] = [high, high * 2];
  while (high - low > 1) {
    const mid = (low + high) >> 1;
    if ((await size(mid)) > 0) low = mid;
    else high = mid;
  }
  const last = (await size(high)) > 0 ? high : low;
  return (last - 1) * 100 + (await size(last));
}

/**
 * The item with the longest history. Every collection's first tokens are probed for a
 * 10th page of 100 events (a 404 ends a collection); those that have one are counted.
 */
async function hottestItem(base: string, collections: CollectionInfo[]): Promise<WorldFacts["hot"]> {
  let best = { collection: "", tokenId: 0, events: -1 };
  for (const { address } of collections) {
    for (let tokenId = 1; tokenId <= 16; tokenId++) {
      const response = await fetch(`${base}/api/v2/item/events/${address}/${tokenId}?perPage=100&page=10`);
      if (!response.ok) {
        await response.arrayBuffer();
        break;
      }
      const { events } = (await response.json()) as { events: unknown[] };
      if (events.length === 0) continue;
      const count = await countEvents(base, address, tokenId);
      if (count > best.events) best = { collection: address, tokenId, events: count };
    }
  }
  if (best.events < 1000) throw new Error(`no item with 1,000 or more events in this world (longest: ${best.events})`);
  return best;
}

export async function learnWorld(base: string, sim: Child): Promise<WorldFacts> {
  const collections = await allCollections(base);
  const keys = apiKeysFromBanner(sim.output);
  const owned = keys.flatMap((key) =>
    collections.filter((c) => c.ownerAddress === key.wallet).map((c) => ({ key, c })),
  );
  if (owned.length === 0) throw new Error("no collection is owned by an API key's developer wallet");
  const { key, c } = owned[0]!;
  return {
    collections,
    hot: await hottestItem(base, collections),
    mint: { apiKey: key.apiKey, wallet: key.wallet, collection: c.address, chainId: c.chainId },
  };
}
