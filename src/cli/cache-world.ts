// Caches a world ahead, as `npm run simulate` with the same options would load it, so that start answers from the
// cache at once: the default world at `npm install` in a clone (scripts/cache-world.mjs, npm's prepare) and in the
// package at `npm pack` (`--into dist/cached-worlds`, the worlds it ships). Nothing is served: the chains replay the
// world in this process, and its image is written under the key such a start looks for.
import { loadAbis } from "../core/abi.ts";
import { exitOn, nodeRefused, runAsScript, usageError } from "./command-line.ts";
import { chooseWorld } from "../scenario/worlds.ts";
import { cacheWorldAhead } from "../simulator/world-image.ts";
import { serverUrl } from "../simulator/simulator.ts";
import { readOptions } from "./options.ts";

export const USAGE = `Usage: node dist/bundle/cache-world.js [--into <dir>] [the options of npm run simulate]

Replays the world those options load and writes it to their world cache (--cache, default
node_modules/.cache/nft-service-simulator), or with --into to that folder; nothing if it is there already.`;

/** 0 cached (or already), 1 failed, 2 a usage error or a world that is never cached. */
export async function cacheWorld(argv: string[]): Promise<number> {
  if (nodeRefused()) return 1;
  const at = argv.indexOf("--into");
  const into = at >= 0 ? argv[at + 1] : undefined;
  try {
    if (at >= 0 && !into) throw usageError("--into: give a directory");
    const rest = at >= 0 ? [...argv.slice(0, at), ...argv.slice(at + 2)] : argv;
    const { help, fixture, wallClock, publicUrl, chainsGiven, keys, ...flags } = readOptions(rest, process.env);
    if (help) {
      console.log(USAGE);
      return 0;
    }
    const { world, options } = chooseWorld({ fixture, wallClock, publicUrl, chainsGiven, keys }, flags);
    const dir = into ?? options.cacheDir;
    const started = performance.now();
    const url = serverUrl(options.host, options.port);
    const outcome = await cacheWorldAhead({ world, options, abis: loadAbis(), url }, into);
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    if (outcome === "uncacheable") {
      console.error(
        "This world is never cached (--no-cache, --wall-clock, --rpc-url, or --port 0 without --public-url).",
      );
      return 2;
    }
    console.log(
      outcome === "cached"
        ? `The world is cached ahead in ${dir} (${seconds} s): a start with these options answers from it at once.`
        : `The world is cached in ${dir} already.`,
    );
    return 0;
  } catch (error) {
    return exitOn(error, USAGE, (failure) => `The world could not be cached: ${failure.stack ?? failure}`);
  }
}

await runAsScript(import.meta.url, cacheWorld);
