import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { deserialize, serialize } from "node:v8";
import type { CoreContracts } from "../chain/deploy.ts";
import type { DecodedLog } from "../indexer/decode.ts";
import type { BlockRef } from "../indexer/log-source.ts";

/**
 * What one chain gave its indexer once the world was loaded: every followed log up to its head (decoded), and the head.
 */
export interface CachedChain {
  chainId: number;
  contracts: CoreContracts;
  head: BlockRef;
  logs: DecodedLog[];
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

/** How many worlds a cache folder keeps (the most recently written). */
const KEPT = 8;

/**
 * Worlds already replayed once, by key (`worldCacheKey`): a start finds its world's logs here
 * and answers reads from them while its chains replay the world, then checks the chains
 * gave the very same blocks. One file per world, written whole or not at all.
 */
export class WorldCache {
  readonly dir: string;

  constructor(dir: string) {
    this.dir = dir;
  }

  /** The world cached under `key`, or undefined (none, or a file that does not read back). */
  read(key: string): CachedWorld | undefined {
    const file = this.#file(key);
    try {
      const world = deserialize(readFileSync(file)) as CachedWorld;
      if (!Array.isArray(world?.chains)) return undefined;
      return world;
    } catch {
      return undefined;
    }
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
