import { WORLD_FILE, type WorldFile } from "./world-file.ts";

/** The snapshot index (fixtures/snapshots/index.json): each request taken and the file holding its answer. */
export interface SnapshotIndex {
  baseUrl: string;
  perPage: number;
  /** Each chain's head block when the snapshots were taken (snapshots exported before it was recorded have none). */
  heads?: { chainId: number; blockNumber: number; timestamp: number }[];
  responses: { method: string; url: string; status: number; file: string }[];
}

/** Reads one snapshot file (a path under the snapshot directory) as parsed JSON. */
export type SnapshotReader = (file: string) => unknown;

/** Where the snapshots come from: a reader, or the files themselves by path under the snapshot directory. */
export type SnapshotFiles = SnapshotReader | Record<string, unknown>;

/**
 * The world file among the snapshot files (`nft-sim fixtures export` writes it beside them). Files given by path, e.g.
 * what Vite's `import.meta.glob("…/snapshots/**\/*.json", { eager: true, import: "default" })` gives, are matched by
 * their part after `snapshots/`.
 */
export function worldOf(files: SnapshotFiles): WorldFile {
  if (typeof files === "function") return files(WORLD_FILE) as WorldFile;
  const found = Object.entries(files).find(
    ([path]) => path.replace(/^.*?snapshots\//, "").replace(/^\.?\//, "") === WORLD_FILE,
  );
  if (!found)
    throw new Error(
      `no ${WORLD_FILE} among the ${Object.keys(files).length} snapshot files given: export them again with ` +
        "`nft-sim fixtures export`, which writes it",
    );
  return found[1] as WorldFile;
}
