// `npm install` in a clone (npm's prepare): compiles the contracts, bundles the command and caches the default world
// ahead (node_modules/.cache/nft-service-simulator, src/cli/cache-world.ts), so the first `npm run simulate` answers
// from the cache at once instead of replaying the world first. It never fails the install: when a step fails, it says
// so on stderr, and the first start replays the world before answering, as it would without it.
import { execFileSync } from "node:child_process";
import { mkdirSync, rmSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));

// `npx nft-sim` in the clone runs its own bundle, as in a project that installed the package: without a bin of that
// name in node_modules/.bin, npx would install the clone into its own cache, running this script again and warning
// that the package wants Node 22 (npm's own Node may be 20).
function linkOwnBin() {
  const bin = join(root, "node_modules/.bin/nft-sim");
  try {
    mkdirSync(join(root, "node_modules/.bin"), { recursive: true });
    rmSync(bin, { force: true });
    symlinkSync("../../dist/bundle/nft-sim.js", bin);
  } catch (error) {
    console.error(`nft-service-simulator: npx nft-sim is not linked here (${error.message.split("\n")[0]})`);
  }
}
const steps = [
  ["scripts/prepare-chain.mjs"],
  ["scripts/bundle.mjs"],
  ["--max-semi-space-size=4", "dist/bundle/cache-world.js", ...process.argv.slice(2)],
];
try {
  for (const args of steps) {
    execFileSync(process.execPath, args, { cwd: root, stdio: "inherit" });
    if (args[0] === "scripts/bundle.mjs") linkOwnBin();
  }
} catch (error) {
  console.error(
    `nft-service-simulator: the default world could not be cached ahead (${error.message.split("\n")[0]}); ` +
      "the first `npm run simulate` replays it before answering (a few seconds), and caches it then.",
  );
}
