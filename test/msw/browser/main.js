/// <reference types="vite/client" />
// A page that answers the API from the default world's snapshots through MSW's service worker,
// as a frontend would use the package (there it imports "nft-service-simulator/msw").
import { setupWorker } from "msw/browser";
import { createHandlers } from "../../../src/msw/browser.ts";

const snapshots = import.meta.glob("../../../fixtures/snapshots/**/*.json", { eager: true, import: "default" });
await setupWorker(...createHandlers({ snapshots })).start({ onUnhandledRequest: "bypass", quiet: true });
document.querySelector("#state")!.textContent = "ready";
(window as unknown as { mockReady: boolean }).mockReady = true;
