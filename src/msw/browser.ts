// `nft-service-simulator/msw` in a browser bundle: the same handlers, from snapshot files the
// bundler brings (there is no file system to read them from), e.g. with Vite:
//
//   import { setupWorker } from "msw/browser";
//   import { createHandlers } from "nft-service-simulator/msw";
//   const snapshots = import.meta.glob("/node_modules/nft-service-simulator/fixtures/snapshots/**/*.json", { eager: true, import: "default" });
//   await setupWorker(...createHandlers({ snapshots })).start();
import type { HttpHandler } from "msw";
import { handlersFrom, type HandlerOptions, type SnapshotFiles } from "./handlers.ts";

export type { HandlerOptions, SnapshotFiles } from "./handlers.ts";

export interface CreateHandlersOptions extends HandlerOptions {
  snapshots: SnapshotFiles;
}

export function createHandlers({ snapshots, ...options }: CreateHandlersOptions): HttpHandler[] {
  return handlersFrom(snapshots, options);
}
