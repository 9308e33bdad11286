import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { artifact } from "../core/abi.ts";
import type { FoldedState } from "../journal/fold.ts";
import { encodeImage, openImage, writeImage, type OpenedImage } from "../journal/image.ts";

// Bump when what is cached, or how it is read, changes.
const FORMAT = 9;

const require = createRequire(import.meta.url);
const versionOf = (packageJson: string) =>
  (JSON.parse(readFileSync(packageJson, "utf8")) as { version: string }).version;

/**
 * Everything that decides what a world's chains hold: the world (its scenario, its "now",
 * the base of its collection uris), the chains it runs on and the heights it starts at, the contracts' code, and the
 * versions of the simulator and of the EVM that replays it. Equal keys, equal chains.
 */
export function worldCacheKey(worldId: string, chains: { chainId: number; startBlock: number }[]): string {
  const parts = {
    format: FORMAT,
    simulator: versionOf(new URL("../../package.json", import.meta.url).pathname),
    hardhat: versionOf(require.resolve("hardhat/package.json")),
    edr: versionOf(join(dirname(require.resolve("@nomicfoundation/edr")), "package.json")),
    contracts: (["Collection", "CollectionFactory", "Marketplace", "TestStablecoin"] as const).map(
      (name) => artifact(name).bytecode,
    ),
    world: worldId,
    chains: [...chains].sort((a, b) => a.chainId - b.chainId),
  };
  return createHash("sha256").update(JSON.stringify(parts)).digest("hex").slice(0, 32);
}

/**
 * Where worlds are cached unless told otherwise: the project's node_modules/.cache (as other tools do), else the
 * system's temporary folder.
 */
export function defaultCacheDir(): string {
  const modules = join(process.cwd(), "node_modules");
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

/**
 * Worlds already replayed once, by key (`worldCacheKey`), each an image of the world as loaded (journal/image.ts, at
 * offset 0: what a journal's checkpoint holds, before any journal): a start answers from it while its chains replay
 * the world, then checks the chains gave the very same head. One file per world, written whole or not at all. Worlds
 * cached ahead (`shipped`) are read when the folder has none, and never written.
 */
export class WorldCache {
  readonly dir: string;
  readonly #shipped: string | undefined;

  constructor(dir: string, shipped?: string) {
    this.dir = dir;
    this.#shipped = shipped;
  }

  /**
   * The world cached under `key` (its image, the head read) and the folder it was found in, or undefined (none, or a
   * file that does not read back).
   */
  open(key: string): { image: OpenedImage; dir: string } | undefined {
    for (const dir of this.#shipped === undefined ? [this.dir] : [this.dir, this.#shipped]) {
      const image = openImage(worldFile(dir, key), (of) => of.world === key && of.offset === 0);
      if (image) return { image, dir };
    }
    return undefined;
  }

  has(key: string): boolean {
    return existsSync(worldFile(this.dir, key));
  }

  /** Writes the image of a world (`worldImage`) under `key`. */
  write(key: string, image: Iterable<Buffer>): void {
    mkdirSync(this.dir, { recursive: true });
    const file = worldFile(this.dir, key);
    writeImage(file, image, `${file}.${process.pid}.tmp`);
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
}

const worldFile = (dir: string, key: string) => join(dir, `${key}.world`);

/**
 * The image of a world as loaded (`state`: its chains' indexes; no API keys, which are the world's own), to cache under
 * `key`: encoded now, so what changes the world next is not in it.
 */
export function worldImage(key: string, state: FoldedState): Buffer[] {
  return [...encodeImage({ world: key, generation: "", offset: 0, at: new Date().toISOString() }, state)];
}
