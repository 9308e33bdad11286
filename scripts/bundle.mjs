// Bundles the `nft-sim` command (src/cli/nft-sim.ts; and `npm run simulate`, src/cli/simulate.ts)
// and what they load into dist/bundle/, one
// chunk per part that loads on demand (Hardhat's only once chains start): resolving and
// loading ~1,500 modules one by one took about a second of every start; one file takes a
// fraction of that. `npm run simulate` and the package's `nft-sim` run the bundle; tests and
// `node src/...` run the sources. Bundles again only when something it is built from is
// newer than the last bundle (--force: always).
import { existsSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { build } from "esbuild";

const root = new URL("..", import.meta.url).pathname;
const out = join(root, "dist", "bundle");
const stamp = join(out, ".bundled");

function newest(path) {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(stat.mtimeMs, ...readdirSync(path).map((entry) => newest(join(path, entry))));
}

const sources = Math.max(
  newest(join(root, "src")),
  newest(join(root, "package-lock.json")),
  newest(new URL(import.meta.url).pathname),
);
if (process.argv.includes("--force") || newest(stamp) < sources) {
  rmSync(out, { recursive: true, force: true });
  await build({
    entryPoints: {
      "nft-sim": join(root, "src/cli/nft-sim.ts"),
      simulate: join(root, "src/cli/simulate.ts"),
      // A world cached ahead, at `npm install` and in the package (src/cli/cache-world.ts).
      "cache-world": join(root, "src/cli/cache-world.ts"),
      // The --state journal's fold runs in a thread of its own, from a file beside the chunks (src/journal/checkpointer.ts).
      "checkpoint-worker": join(root, "src/journal/checkpoint-worker.ts"),
    },
    outdir: out,
    bundle: true,
    splitting: true,
    format: "esm",
    platform: "node",
    target: "node22",
    // Native bindings and what the command never loads stay outside.
    external: [
      "@nomicfoundation/edr",
      "@nomicfoundation/solidity-analyzer",
      "fsevents",
      "msw",
      "playwright-core",
      "solc",
    ],
    // Bundled CommonJS modules call require(); in an ES module it has to be made.
    banner: {
      js: 'import { createRequire as __bundleRequire } from "node:module"; const require = __bundleRequire(import.meta.url);',
    },
    logLevel: "warning",
  });
  writeFileSync(stamp, `${new Date().toISOString()}\n`);
}
