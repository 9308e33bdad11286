// Checked by tsc under the "browser" condition (tsconfig.browser.json): the browser build's own
// declarations, not the Node ones.
import { setupWorker } from "msw/browser";
import { createHandlers, DEFAULT_SNAPSHOTS, handlers } from "nft-service-simulator/msw";

export const worker = setupWorker(
  ...handlers,
  ...createHandlers({ snapshots: DEFAULT_SNAPSHOTS, baseUrl: "http://localhost:3000" }),
);
// @ts-expect-error a browser has no snapshot directory to name: the files themselves are given
export const fromDirectory = createHandlers({ snapshots: "fixtures/snapshots" });
// The ABIs need no file system either.
export { marketplaceAbi } from "nft-service-simulator/abi";
