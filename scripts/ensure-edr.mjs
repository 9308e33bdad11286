// Hardhat's EDR ships its native code as a per-platform optional package that
// requires Node >= 22. npm running on an older Node skips it, and a later
// `npm install <pkg>` prunes a copy installed outside package.json. This script
// runs (on the project's own Node 22, which npm scripts find first on PATH) before
// every script that runs the chain (prepare-chain.mjs), when vitest or Hardhat loads
// its config, and puts the binding back whenever it is missing. It is no install
// script: the published package has none (its users install on Node 22 or later,
// where npm installs the binding itself).
import { createRequire } from "node:module";
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";

const require = createRequire(import.meta.url);

function bindingLoads() {
  try {
    require("@nomicfoundation/edr");
    return true;
  } catch {
    return false;
  }
}

function isGlibc() {
  return Boolean(process.report?.getReport().header.glibcVersionRuntime);
}

function bindingPackage() {
  const { platform, arch } = process;
  const suffix = { linux: isGlibc() ? "-gnu" : "-musl", win32: "-msvc" }[platform] ?? "";
  const name = `@nomicfoundation/edr-${platform}-${arch}${suffix}`;
  const edrDir = dirname(require.resolve("@nomicfoundation/edr"));
  const edr = JSON.parse(readFileSync(join(edrDir, "package.json"), "utf8"));
  const version = edr.optionalDependencies?.[name];
  if (!version) throw new Error(`EDR ${edr.version} has no native build for ${platform}-${arch}${suffix}`);
  return `${name}@${version}`;
}

if (!bindingLoads()) {
  const pkg = bindingPackage();
  console.log(`ensure-edr: installing ${pkg} (npm skips it when it runs on Node < 22)`);
  execFileSync("npm", ["install", "--no-save", "--ignore-scripts", "--no-audit", "--no-fund", pkg], {
    stdio: "inherit",
  });
  if (!bindingLoads()) {
    console.error("ensure-edr: the EDR native binding still does not load");
    process.exit(1);
  }
}
