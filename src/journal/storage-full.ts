/** What a write or sync of the journal can fail with when its storage cannot take it (the disk, not the simulator). */
const STORAGE_CODES = new Set(["ENOSPC", "EDQUOT", "EIO", "EROFS", "EFBIG"]);

/** A failure of the disk under the journal (no space, quota, read-only, I/O error), as opposed to a bug. */
export function isStorageError(error: unknown): error is NodeJS.ErrnoException {
  return typeof (error as { code?: unknown })?.code === "string" && STORAGE_CODES.has((error as { code: string }).code);
}
