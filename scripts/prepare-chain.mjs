// Compiles the contracts only when something they are built from is newer than the
// compiled artifacts: loading Hardhat just to learn that nothing changed costs ~2 s
// of every `npm run simulate`. Run with --force to compile anyway.
// First of all, put EDR's native binding back if a later `npm install <pkg>` pruned it.
import "./ensure-edr.mjs";
import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";

const root = new URL("..", import.meta.url).pathname;

function newest(path) {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(stat.mtimeMs, ...readdirSync(path).map((entry) => newest(join(path, entry))));
}

const sources = Math.max(
  newest(join(root, "contracts")),
  newest(join(root, "hardhat.config.ts")),
  newest(join(root, "package-lock.json")),
);
// Written after every compile: Hardhat leaves unchanged artifacts alone, so their own times
// would make a later lock-file change look like a change forever.
const stamp = join(root, "artifacts", ".compiled");
const compiled = existsSync(join(root, "artifacts/artifacts.d.ts")) ? newest(stamp) : 0;

if (process.argv.includes("--force") || compiled < sources) {
  execFileSync("hardhat", ["compile", "--quiet"], { cwd: root, stdio: "inherit" });
  writeFileSync(stamp, `${new Date().toISOString()}\n`);
}
