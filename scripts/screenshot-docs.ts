// `node scripts/screenshot-docs.ts [out.png]`: the API reference (/docs) of a simulator running the
// default world, with the mint operation opened in "Try it out", as Debian's Chromium renders it.
import { chromium } from "playwright-core";
import { defaultWorld } from "../src/scenario/worlds.ts";
import { startSimulator } from "../src/simulator/simulator.ts";

const out = process.argv[2] ?? "docs/screenshots/swagger-mint.png";
const sim = await startSimulator(defaultWorld(), { port: 0, serveRpc: false });
const browser = await chromium.launch({
  executablePath: "/usr/bin/chromium",
  args: [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
  ],
});
try {
  const page = await browser.newPage({ viewport: { width: 1280, height: 1400 } });
  await page.goto(`${sim.url}/docs`);
  await page.locator("#operations-Items-mintItem .opblock-summary").click();
  await page.locator("#operations-Items-mintItem button.try-out__btn").click();
  const operation = page.locator("#operations-Items-mintItem");
  await operation.locator("textarea.body-param__text").waitFor();
  // The request part: the description, the example body ready to send, and the start of the answers.
  const box = (await operation.boundingBox())!;
  await page.screenshot({
    path: out,
    clip: { x: box.x, y: box.y, width: box.width, height: Math.min(box.height, 900) },
    fullPage: true,
  });
  console.log(`${out}: the mint operation of ${sim.url}/docs`);
} finally {
  await browser.close();
  await sim.close();
}
