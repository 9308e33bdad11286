import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { deserialize, serialize } from "node:v8";
import type { CoreContracts } from "../chain/deploy.ts";
import type { IndexedLog } from "../indexer/decode.ts";
import type { BlockRef } from "../indexer/log-source.ts";

/**
 * What one chain gave its indexer once the world was loaded: every followed log up to its head (decoded; the parts the
 * indexer reads), and the head.
 */
export interface CachedChain {
  chainId: number;
  contracts: CoreContracts;
  head: BlockRef;
  logs: IndexedLog[];
}

/** A world as a previous start found it on its chains. */
export interface CachedWorld {
  chains: CachedChain[];
}

/**
 * Where worlds are cached unless told otherwise: the project's node_modules/.cache (as other tools do), else the
 * system's temporary folder.
 */
export function defaultCacheDir(cwd = process.cwd()): string {
  const modules = join(cwd, "node_modules");
  return existsSync(modules)
    ? join(modules, ".cache", "nft-service-simulator")
    : join(tmpdir(), "nft-service-simulator-cache");
}

/**
 * The worlds the package ships, cached ahead when it is packed (`npm run cache-world -- --shipped`): read when the
 * default cache folder has none, so a user's first start answers at once too. The same folder from the sources
 * (src/world-cache/), the compiled package (dist/world-cache/) and the bundle (dist/bundle/).
 */
export const SHIPPED_WORLDS_DIR = fileURLToPath(new URL("../../dist/cached-worlds/", import.meta.url));

/** How many worlds a cache folder keeps (the most recently written). */
const KEPT = 8;

/** A cached world, and the folder it was found in. */
export interface FoundWorld {
  world: CachedWorld;
  dir: string;
}

/**
 * Worlds already replayed once, by key (`worldCacheKey`): a start finds its world's logs here
 * and answers reads from them while its chains replay the world, then checks the chains
 * gave the very same blocks. One file per world, written whole or not at all. Worlds cached
 * ahead (`shipped`) are read when the folder has none, and never written.
 */
export class WorldCache {
  readonly dir: string;
  readonly #shipped: string | undefined;

  constructor(dir: string, shipped?: string) {
    this.dir = dir;
    this.#shipped = shipped;
  }

  /** The world cached under `key`, or undefined (none, or a file that does not read back). */
  read(key: string): FoundWorld | undefined {
    for (const dir of this.#shipped === undefined ? [this.dir] : [this.dir, this.#shipped]) {
      const world = readWorld(join(dir, `${key}.world`));
      if (world) return { world, dir };
    }
    return undefined;
  }

  has(key: string): boolean {
    return existsSync(this.#file(key));
  }

  write(key: string, world: CachedWorld): void {
    mkdirSync(this.dir, { recursive: true });
    const file = this.#file(key);
    const partial = `${file}.${process.pid}.tmp`;
    writeFileSync(partial, serialize(world));
    renameSync(partial, file);
    this.#prune();
  }

  /** Drops the worlds written longest ago, beyond the few kept. */
  #prune(): void {
    const worlds = readdirSync(this.dir)
      .filter((name) => name.endsWith(".world"))
      .map((name) => ({ name, at: statSync(join(this.dir, name)).mtimeMs }))
      .sort((a, b) => b.at - a.at);
    for (const { name } of worlds.slice(KEPT)) rmSync(join(this.dir, name), { force: true });
  }

  #file(key: string): string {
    return join(this.dir, `${key}.world`);
  }
}

function readWorld(file: string): CachedWorld | undefined {
  try {
    const world = deserialize(readFileSync(file)) as CachedWorld;
    return Array.isArray(world?.chains) ? world : undefined;
  } catch {
    return undefined;
  }
}
