import { hash } from "node:crypto";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { importCollections } from "../import/import.ts";
import { isStartError } from "../core/errors.ts";

const FORKS_DIR = ".nft-sim/forks";

/** The flags `npm run simulate` takes for a fork (read here, before its own). */
export const FORK_FLAGS = { fork: { type: "string" }, collection: { type: "string", multiple: true } } as const;

/**
 * `--fork <base-url> --collection <address> […]`: the collections imported (through the import's cache, a read key from
 * IMPORT_API_KEY), written as a world under .nft-sim/forks/, and the arguments given back with `--fixture <that file>`
 * in their place. Other arguments pass as they are. A refusal answers the exit code and its line instead.
 */
export async function forkedArguments(argv: string[]): Promise<string[] | { code: number; line: string }> {
  if (!argv.includes("--fork")) return argv;
  const rest: string[] = [];
  const collections: string[] = [];
  let from: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === "--fork") from = argv[++i];
    else if (argv[i] === "--collection") collections.push(argv[++i] ?? "");
    else rest.push(argv[i]!);
  }
  if (!from || collections.length === 0 || collections.includes(""))
    return { code: 2, line: "--fork needs a base URL and at least one --collection <address>" };
  try {
    const apiKey = process.env.IMPORT_API_KEY;
    const imported = await importCollections({
      from,
      collections,
      cacheDir: ".nft-sim/import-cache",
      ...(apiKey ? { apiKey } : {}),
    });
    mkdirSync(FORKS_DIR, { recursive: true });
    const file = join(FORKS_DIR, `${hash("sha256", `${from} ${collections.join(" ")}`).slice(0, 16)}.json`);
    writeFileSync(file, `${JSON.stringify(imported.scenario, null, 2)}\n`);
    console.log(
      `Forked ${collections.length} collection(s) of ${from} into ${file} (${imported.events} events; ` +
        `${imported.counts.fetched} answers fetched, ${imported.counts.fromCache} from the cache)`,
    );
    return [...rest, "--fixture", file];
  } catch (error) {
    if (isStartError(error)) return { code: error.descriptor.exitCode, line: `--fork: ${error.message}` };
    throw error;
  }
}
