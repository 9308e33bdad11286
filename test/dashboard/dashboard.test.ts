import { existsSync, mkdirSync } from "node:fs";
import { chromium, type Browser, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Simulator } from "../../src/simulator.ts";
import { call, mintBody, postJson, startDemo, DEMO_KEYS } from "../harness.ts";

// The dashboard at / in headless Chromium (Debian's; never a downloaded browser), against a real
// simulator: list → collection → item history shows what the API answers, a mint appears after a
// refresh, and the control panel moves time and snapshots. Screenshots go to test-artifacts/dashboard/.

const CHROMIUM = "/usr/bin/chromium";
const SHOTS = "test-artifacts/dashboard";

describe.skipIf(!existsSync(CHROMIUM))("the dashboard in Chromium (skipped without /usr/bin/chromium)", () => {
  let sim: Simulator;
  let browser: Browser;
  let page: Page;
  const failures: string[] = [];

  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    sim = await startDemo();
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ["--no-sandbox", "--disable-background-networking", "--disable-component-update", "--disable-sync"] });
    page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    page.on("pageerror", (error) => failures.push(error.message));
    // Nothing but the simulator: a CDN request would fail the test.
    await page.route("**/*", (route) => (route.request().url().startsWith(sim.url) ? route.continue() : (failures.push(`outside request: ${route.request().url()}`), route.abort())));
  });
  afterAll(async () => {
    await browser?.close();
    await sim?.close();
  });

  it("lists the collections, sorts them, and leads to a collection's items and an item's history, as the API answers them", async () => {
    await page.goto(`${sim.url}/`);
    const rows = page.locator('[data-testid="collections"] tbody tr');
    await expect.poll(() => rows.count()).toBe(5);
    const { body: list } = await call(sim, "/api/v2/collection?perPage=10");
    expect(await rows.first().locator("td").first().textContent()).toBe(list.collections[0].name);
    await page.screenshot({ path: `${SHOTS}/collections.png` });

    await page.getByRole("button", { name: "Volume all" }).click();
    const { body: byVolume } = await call(sim, "/api/v2/collection?perPage=10&sortBy=volume_all&sortDir=desc");
    await expect.poll(() => rows.first().locator("td").first().textContent()).toBe(byVolume.collections[0].name);

    const target = byVolume.collections[0];
    await page.getByRole("link", { name: target.name }).click();
    await expect.poll(() => page.locator("h1").textContent()).toBe(target.name);
    const { body: items } = await call(sim, `/_sim/collections/${target.address}/items`);
    const itemRows = page.locator('[data-testid="items"] tbody tr');
    await expect.poll(() => itemRows.count()).toBe(items.items.length);
    await page.screenshot({ path: `${SHOTS}/collection.png` });

    const first = items.items[0];
    await page.getByRole("link", { name: `#${first.tokenId}` }).click();
    const { body: history } = await call(sim, `/api/v2/item/events/${target.address}/${first.tokenId}?perPage=25`);
    const historyRows = page.locator('[data-testid="history"] tbody tr');
    await expect.poll(() => historyRows.count()).toBe(history.events.length);
    expect(await historyRows.first().locator("td").first().textContent()).toBe(history.events[0].event);
    await page.screenshot({ path: `${SHOTS}/item.png` });
  });

  it("shows a mint made through the API after a refresh", async () => {
    const { body: list } = await call(sim, "/api/v2/collection?chainId=56&perPage=1");
    const collection = list.collections[0].address;
    const minted = await postJson(sim, `/api/v2/item/new?apiKey=${DEMO_KEYS.studio}`, mintBody(sim, collection, 56, { name: "Fresh From The API" }));
    expect(minted.status).toBe(200);
    await page.goto(`${sim.url}/#/collection/${collection}`);
    await expect.poll(() => page.getByRole("link", { name: `#${minted.body.tokenIds[0]}` }).count()).toBe(1);
    await expect.poll(() => page.getByText("Fresh From The API").count()).toBe(1);
  });

  it("moves time, takes a snapshot and resets from the control panel", async () => {
    await page.goto(`${sim.url}/`);
    const clock = page.locator('[data-testid="clock"]');
    await expect.poll(() => clock.textContent()).toMatch(/chain 56: 2025-/);
    const before = await clock.textContent();
    await page.getByRole("button", { name: "+1 day" }).click();
    await expect.poll(() => clock.textContent()).not.toBe(before);
    const { body: time } = await call(sim, "/_sim/time");
    expect(await clock.textContent()).toContain(time.chains[0].time.slice(0, 10));

    await page.getByRole("button", { name: "Take snapshot" }).click();
    await expect.poll(() => page.locator('[data-testid="snapshots"] li').count()).toBe(1);
    await page.getByRole("button", { name: "Reset world" }).click();
    await expect.poll(() => page.locator("#message").textContent()).toBe("back to the world as loaded");
    const { body: loaded } = await call(sim, "/_sim/time");
    expect(loaded.chains[0].timestamp).toBeLessThan(time.chains[0].timestamp);
    await expect.poll(() => clock.textContent()).toContain(loaded.chains[0].time.replace("T", " ").replace(".000Z", " UTC"));
    await page.screenshot({ path: `${SHOTS}/control.png` });
    expect(failures).toEqual([]);
  });
});
