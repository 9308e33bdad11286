// `nft-service-simulator/msw` in a browser bundle (the package's "browser" condition): the same
// handlers as in Node, answering from the default world's snapshots, which the build bundles as a
// module (dist/msw/default-world.js), since a page has no file system to read them from.
//
//   import { setupWorker } from "msw/browser";
//   import { handlers } from "nft-service-simulator/msw";
//   await setupWorker(...handlers).start();
//
// `createHandlers({ snapshots })` takes the snapshot files themselves: DEFAULT_SNAPSHOTS (the
// default world's, bundled), or files your bundler brings (Vite: `import.meta.glob(…)`). A bundle
// that uses neither `handlers` nor DEFAULT_SNAPSHOTS leaves the default world out (no side effects).
import type { HttpHandler } from "msw";
import defaultWorld from "./default-world.js";
import { handlersFrom, type HandlerOptions, type SnapshotFiles } from "./handlers.ts";

export type { HandlerOptions, SnapshotFiles } from "./handlers.ts";
export type { SnapshotIndex, SnapshotReader } from "./data.ts";

/** The default world's snapshot files, by path (in Node the same name is their directory). */
export const DEFAULT_SNAPSHOTS: SnapshotFiles = defaultWorld;

export interface CreateHandlersOptions extends HandlerOptions {
  /** The snapshot files by path, or a reader of them (a browser has no directory to read): DEFAULT_SNAPSHOTS for the default world. */
  snapshots: SnapshotFiles;
}

export function createHandlers({ snapshots, ...options }: CreateHandlersOptions): HttpHandler[] {
  return handlersFrom(snapshots, options);
}

/** Handlers for the default world on any origin. */
export const handlers: HttpHandler[] = /* @__PURE__ */ createHandlers({ snapshots: defaultWorld });
