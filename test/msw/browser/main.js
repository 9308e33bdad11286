// A page as a frontend team writes it: MSW's service worker with the package's handlers, imported
// through the package's own entry (its "browser" condition), answering from the default world's
// snapshots with no server behind them. test/msw/browser.test.ts builds it with Vite.
import { setupWorker } from "msw/browser";
import { handlers } from "nft-service-simulator/msw";

await setupWorker(...handlers).start({ onUnhandledRequest: "bypass", quiet: true });
document.querySelector("#state").textContent = "ready";
window.mockReady = true;
