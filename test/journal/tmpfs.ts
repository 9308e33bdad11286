import { execFileSync } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/**
 * A small tmpfs of its own, for a real full disk. Mounting needs root (CI runs as root): where it
 * is impossible, `why` says so, for `needing` (skipped on a developer's machine, failed in CI).
 */
export function mountTmpfs(
  size: string,
): { dir: string; resize(size: string): void; unmount(): void } | { why: string } {
  const dir = mkdtempSync(join(tmpdir(), "nft-sim-tmpfs-"));
  try {
    execFileSync("mount", ["-t", "tmpfs", "-o", `size=${size}`, "tmpfs", dir], { stdio: "pipe" });
  } catch (error) {
    const why = `mounting a tmpfs failed (${String((error as { stderr?: Buffer }).stderr ?? error).trim()}): it needs root`;
    return { why };
  }
  return {
    dir,
    resize: (to) => execFileSync("mount", ["-o", `remount,size=${to}`, dir], { stdio: "pipe" }),
    unmount: () => execFileSync("umount", ["-l", dir], { stdio: "pipe" }),
  };
}
