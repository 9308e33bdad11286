// `nft-service-simulator/msw` in Node: MSW handlers answering as the simulator serving a snapshotted world would.
//
//   import { setupServer } from "msw/node";
//   import { handlers } from "nft-service-simulator/msw";
//   setupServer(...handlers).listen();
//
// `handlers` answer from the default world the package ships; `createHandlers` makes a fresh set (a mocked mint stays
// within its set), from another snapshot directory if given (its world.json, which `nft-sim fixtures export` writes).
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { HttpHandler } from "msw";
import { picture } from "../images/identicon.ts";
import { handlersFrom, type HandlerOptions } from "./handlers.ts";
import type { SnapshotFiles } from "./world-file.ts";

export type { HandlerOptions } from "./handlers.ts";
export type { SnapshotFiles, SnapshotIndex, SnapshotReader } from "./world-file.ts";

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
      ? (file: string) => JSON.parse(readFileSync(join(snapshots, file), "utf8")) as unknown
      : snapshots;
  return handlersFrom(files, options, picture);
}

/** Handlers for the default world on any origin. */
export const handlers: HttpHandler[] = createHandlers();
