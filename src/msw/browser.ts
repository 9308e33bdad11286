// `nft-service-simulator/msw` in a browser bundle (the package's "browser" condition): the same
// handlers as in Node, answering from the default world (its world.json, beside the snapshots), which
// the build bundles as a module (dist/msw/default-world.js), since a page has no file system to read it from.
//
//   import { setupWorker } from "msw/browser";
//   import { handlers } from "nft-service-simulator/msw";
//   await setupWorker(...handlers).start();
//
// Images are drawn here as SVG (the same pictures the simulator serves as PNG; a browser build of
// jdenticon draws no PNG). `createHandlers({ snapshots })` takes the snapshot files themselves:
// DEFAULT_SNAPSHOTS (the default world's, bundled), or files your bundler brings (Vite:
// `import.meta.glob(…)`). A bundle that uses neither `handlers` nor DEFAULT_SNAPSHOTS leaves the
// default world out (no side effects).
import { toSvg } from "jdenticon";
import type { HttpHandler } from "msw";
import { identiconConfig } from "../images/identicon-config.ts";
import defaultWorld from "./default-world.js";
import { handlersFrom, type HandlerOptions } from "./handlers.ts";
import type { SnapshotFiles } from "./world-file.ts";

export type { HandlerOptions } from "./handlers.ts";
export type { SnapshotFiles, SnapshotIndex, SnapshotReader } from "./world-file.ts";

/** The default world's snapshot files, by path (in Node the same name is their directory). */
export const DEFAULT_SNAPSHOTS: SnapshotFiles = defaultWorld;

export interface CreateHandlersOptions extends HandlerOptions {
  /**
   * The snapshot files by path, or a reader of them (a browser has no directory to read): DEFAULT_SNAPSHOTS for the
   * default world.
   */
  snapshots: SnapshotFiles;
}

/** The simulator's picture of a seed, drawn here as SVG whichever format is asked for. */
const drawSvg = (seed: string, _format: string, size: number) => ({
  bytes: new TextEncoder().encode(toSvg(seed, size, identiconConfig(seed))),
  type: "image/svg+xml",
});

export function createHandlers({ snapshots, ...options }: CreateHandlersOptions): HttpHandler[] {
  return handlersFrom(snapshots, options, drawSvg);
}

/** Handlers for the default world on any origin. */
export const handlers: HttpHandler[] = /* @__PURE__ */ createHandlers({ snapshots: defaultWorld });
