import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

const FILE = "wall-clock-now";

/**
 * The world's "now" under --wall-clock with --state: the wall clock at the first start, kept
 * in the state directory, so a later start replays the same world and its journal onto it
 * (the chain's clock resumes where the journal left it).
 */
export function keptWallClock(stateDir: string): Date {
  const path = join(stateDir, FILE);
  if (existsSync(path)) return new Date(readFileSync(path, "utf8").trim());
  const now = new Date();
  mkdirSync(stateDir, { recursive: true });
  writeFileSync(path, `${now.toISOString()}\n`);
  return now;
}
