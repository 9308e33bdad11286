import { apiError, ERRORS } from "../core/errors.ts";

/** What a write or sync of the journal can fail with when its storage cannot take it (the disk, not the simulator). */
const STORAGE_CODES = new Set(["ENOSPC", "EDQUOT", "EIO", "EROFS", "EFBIG"]);

/** A failure of the disk under the journal (no space, quota, read-only, I/O error), as opposed to a bug. */
export function isStorageError(error: unknown): error is NodeJS.ErrnoException {
  return typeof (error as { code?: unknown })?.code === "string" && STORAGE_CODES.has((error as { code: string }).code);
}

/** What a disk refusing writes means to do about it, by its errno code. */
const REMEDY: Record<string, string> = {
  ENOSPC: "free space there",
  EDQUOT: "free space there or raise the quota",
  EFBIG: "the journal reached the largest file the filesystem takes; move --state to another filesystem",
  EROFS: "the filesystem is read-only; remount it read-write",
  EIO: "the disk reported an I/O error; check it",
};

/**
 * A change refused because its record (the journal in `dir`) could not be made durable: its disk is full, read-only or
 * failing. Nothing of the change was kept or acknowledged (507).
 */
export function storageFull(dir: string, cause: NodeJS.ErrnoException) {
  const code = cause.code ?? "EIO";
  const detail =
    `${cause.message}: ${REMEDY[code] ?? "check the disk"}; ` +
    "writes answer 507 until the journal can be written again, reads still answer";
  return apiError(ERRORS.STORAGE_FULL, { dir, code }, { errors: [detail] });
}
