// `nft-service-simulator/msw` in Node: MSW handlers answering from response snapshots.
//
//   import { setupServer } from "msw/node";
//   import { handlers } from "nft-service-simulator/msw";
//   setupServer(...handlers).listen();
//
// `handlers` answer from the default world's snapshots the package ships; `createHandlers`
// makes a fresh set (a mocked mint stays within its set), from another snapshot directory if given.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { HttpHandler } from "msw";
import { handlersFrom, type HandlerOptions, type SnapshotFiles } from "./handlers.ts";

export type { HandlerOptions, SnapshotFiles } from "./handlers.ts";
export type { SnapshotIndex, SnapshotReader } from "./data.ts";

/** The snapshots of the default world (fixtures/snapshots, written by `nft-sim fixtures export`). */
export const DEFAULT_SNAPSHOTS = fileURLToPath(new URL("../../fixtures/snapshots", import.meta.url));

export interface CreateHandlersOptions extends HandlerOptions {
  /**
   * A snapshot directory (as `nft-sim fixtures export --out` writes), or the files themselves; default the default
   * world's.
   */
  snapshots?: string | SnapshotFiles;
}

export function createHandlers({
  snapshots = DEFAULT_SNAPSHOTS,
  ...options
}: CreateHandlersOptions = {}): HttpHandler[] {
  const files =
    typeof snapshots === "string"
      ? (file: string) =>
          file.endsWith(".json")
            ? (JSON.parse(readFileSync(join(snapshots, file), "utf8")) as unknown)
            : new Uint8Array(readFileSync(join(snapshots, file)))
      : snapshots;
  return handlersFrom(files, options);
}

/** Handlers for the default world on any origin. */
export const handlers: HttpHandler[] = createHandlers();
