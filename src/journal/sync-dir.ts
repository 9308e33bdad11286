import { closeSync, fsyncSync, openSync } from "node:fs";

/**
 * Makes a file's creation, rename or removal in `dir` durable: the directory itself is synced
 * (a crash can otherwise lose the new name while the file's data is on disk). Windows cannot open
 * a directory to sync it, and keeps names durable on its own.
 */
export function syncDir(dir: string): void {
  if (process.platform === "win32") return;
  const fd = openSync(dir, "r");
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}
