// `node scripts/screenshot-dashboard.ts [dir]`: the dashboard of a simulator running the default
// world, as Debian's Chromium renders it: the collections, the busiest collection and its busiest
// item (docs/screenshots/dashboard*.png).
import { chromium } from "playwright-core";
import { defaultWorld } from "../src/scenario/worlds.ts";
import { startSimulator } from "../src/simulator/simulator.ts";

const dir = process.argv[2] ?? "docs/screenshots";
const sim = await startSimulator(defaultWorld(), { port: 0, serveRpc: false });
const browser = await chromium.launch({
  executablePath: "/usr/bin/chromium",
  args: [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
  ],
});
const json = async (path: string) => (await fetch(`${sim.url}${path}`)).json();
try {
  const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
  const shot = async (hash: string, file: string, ready: string) => {
    await page.goto(`${sim.url}/${hash}`);
    await page.locator(ready).first().waitFor();
    await page.waitForFunction(() => [...document.images].every((image) => image.complete && image.naturalWidth > 0));
    await page.screenshot({ path: `${dir}/${file}`, fullPage: false });
    console.log(`${dir}/${file}: ${hash || "/"}`);
  };
  const { collections } = await json("/api/v2/collection?sortBy=volume_all&sortDir=desc&perPage=1");
  const busiest = collections[0];
  const { items } = await json(`/_sim/collections/${busiest.address}/items`);
  const item = items.reduce((a: { events: number }, b: { events: number }) => (b.events > a.events ? b : a));
  await shot("", "dashboard.png", '[data-testid="collections"] tbody tr');
  await shot(`#/collection/${busiest.address}`, "dashboard-collection.png", '[data-testid="volume-chart"] canvas');
  await shot(`#/item/${busiest.address}/${item.tokenId}`, "dashboard-item.png", '[data-testid="price-chart"] canvas');
} finally {
  await browser.close();
  await sim.close();
}
