// Vitest's global setup: every temporary file a run makes (its tests', and those of the simulators, nodes and
// processes they start) goes under one folder of its own, removed when the run ends, so runs leave nothing behind.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export function setup(): () => void {
  const root = mkdtempSync(join(tmpdir(), "nft-sim-test-run-"));
  process.env.TMPDIR = root;
  return () => rmSync(root, { recursive: true, force: true });
}
