import { mkdirSync } from "node:fs";
import { chromium, type Browser, type Page } from "playwright-core";
import { afterAll, beforeAll, expect, it } from "vitest";
import type { Simulator } from "../../src/simulator.ts";
import { CHROMIUM, describeInChromium, requireChromium } from "../chromium.ts";
import { call, chainHeads, expectErrorBody, mintBody, postJson, startDemo, DEMO_KEYS } from "../harness.ts";

// The dashboard at / in headless Chromium (Debian's; never a downloaded browser), against a real
// simulator: list → collection → item history shows what the API answers; paging and a filter; a
// mint made through the API appears on a reload (and was absent before it); the control panel moves
// time, takes a snapshot and reverts to it, resets, and adds and removes a fault rule that the API
// then applies. Screenshots go to test-artifacts/dashboard/.

const SHOTS = "test-artifacts/dashboard";
const MINT = `/api/v2/item/new?apiKey=${DEMO_KEYS.studio}`;

describeInChromium("the dashboard in Chromium", () => {
  let sim: Simulator;
  let browser: Browser;
  let page: Page;
  const failures: string[] = [];
  const names = (rows: ReturnType<Page["locator"]>) => rows.locator("td:first-child").allTextContents();

  beforeAll(async () => {
    requireChromium();
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
    expect(await names(rows)).toEqual(list.collections.map((c: { name: string }) => c.name));
    await page.screenshot({ path: `${SHOTS}/collections.png` });

    await page.getByRole("button", { name: "Volume all" }).click();
    const { body: byVolume } = await call(sim, "/api/v2/collection?perPage=10&sortBy=volume_all&sortDir=desc");
    await expect.poll(() => names(rows)).toEqual(byVolume.collections.map((c: { name: string }) => c.name));

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
    expect(await names(historyRows)).toEqual(history.events.map((e: { event: string }) => e.event));
    await page.screenshot({ path: `${SHOTS}/item.png` });
  });

  it("pages through the list and filters it, showing what the API answers for the same query", async () => {
    await page.goto(`${sim.url}/#/?perPage=2`);
    const rows = page.locator('[data-testid="collections"] tbody tr');
    const pageOf = async (query: string) => (await call(sim, `/api/v2/collection?${query}`)).body.collections.map((c: { name: string }) => c.name);
    await expect.poll(() => names(rows)).toEqual(await pageOf("perPage=2&page=1"));
    await expect.poll(() => page.locator(".pager span").textContent()).toBe("page 1 of 3");
    await page.getByRole("button", { name: "next →" }).click();
    await expect.poll(() => names(rows)).toEqual(await pageOf("perPage=2&page=2"));
    await page.getByRole("button", { name: "next →" }).click();
    await expect.poll(() => names(rows)).toEqual(await pageOf("perPage=2&page=3"));
    expect(await page.getByRole("button", { name: "next →" }).isDisabled()).toBe(true);
    await page.getByRole("button", { name: "← previous" }).click();
    await expect.poll(() => page.locator(".pager span").textContent()).toBe("page 2 of 3");

    await page.goto(`${sim.url}/#/`);
    // The filter box belongs to the view: wait for the unpaged list to replace the paged one before typing into it.
    const { body: all } = await call(sim, "/api/v2/collection?perPage=10");
    await expect.poll(() => names(rows)).toEqual(all.collections.map((c: { name: string }) => c.name));
    await page.getByRole("textbox", { name: "chain id" }).fill("137");
    await page.getByRole("textbox", { name: "chain id" }).press("Enter");
    const { body: filtered } = await call(sim, "/api/v2/collection?chainId=137&perPage=10");
    expect(filtered.count).toBeGreaterThan(0);
    expect(filtered.count).toBeLessThan(5);
    await expect.poll(() => names(rows)).toEqual(filtered.collections.map((c: { name: string }) => c.name));
    await expect.poll(() => page.locator("h1").textContent()).toBe(`Collections (${filtered.count})`);
  });

  it("shows a mint made through the API after a reload, and not before", async () => {
    const { body: list } = await call(sim, "/api/v2/collection?chainId=56&perPage=1");
    const collection = list.collections[0].address;
    await page.goto(`${sim.url}/#/collection/${collection}`);
    const itemRows = page.locator('[data-testid="items"] tbody tr');
    const { body: before } = await call(sim, `/_sim/collections/${collection}/items`);
    await expect.poll(() => itemRows.count()).toBe(before.items.length);
    expect(await page.getByText("Fresh From The API").count()).toBe(0);

    const minted = await postJson(sim, MINT, mintBody(sim, collection, 56, { name: "Fresh From The API" }));
    expect(minted.status).toBe(200);
    // The page does not poll: the mint is not there until it is reloaded.
    expect(await itemRows.count()).toBe(before.items.length);
    await page.reload();
    await expect.poll(() => itemRows.count()).toBe(before.items.length + 1);
    expect(await page.getByRole("link", { name: `#${minted.body.tokenIds[0]}` }).count()).toBe(1);
    expect(await page.getByText("Fresh From The API").count()).toBe(1);
  });

  it("moves time, takes a snapshot and reverts to it, and resets, from the control panel", async () => {
    await page.goto(`${sim.url}/`);
    const clock = page.locator('[data-testid="clock"]');
    const shown = (time: string) => time.replace("T", " ").replace(".000Z", " UTC");
    await expect.poll(() => clock.textContent()).toMatch(/chain 56: 2025-/);
    const { body: loaded } = await call(sim, "/_sim/time");

    await page.getByRole("button", { name: "Take snapshot" }).click();
    await expect.poll(() => page.locator('[data-testid="snapshots"] li').count()).toBe(1);
    await expect.poll(() => page.locator("#message").textContent()).toBe("snapshot taken");
    await page.getByRole("button", { name: "+1 day" }).click();
    await expect.poll(() => page.locator("#message").textContent()).toBe("time advanced by +1 day");
    const { body: advanced } = await call(sim, "/_sim/time");
    expect(advanced.chains[0].timestamp).toBe(loaded.chains[0].timestamp + 86_400);
    await expect.poll(() => clock.textContent()).toContain(shown(advanced.chains[0].time));

    await page.locator('[data-testid="snapshots"] li').getByRole("button", { name: "revert" }).click();
    await expect.poll(() => page.locator("#message").textContent()).toBe("reverted to snapshot 1");
    const { body: reverted } = await call(sim, "/_sim/time");
    expect(reverted.chains.map((c: { timestamp: number }) => c.timestamp)).toEqual(loaded.chains.map((c: { timestamp: number }) => c.timestamp));
    await expect.poll(() => clock.textContent()).toContain(shown(loaded.chains[0].time));

    await page.getByRole("button", { name: "+7 days" }).click();
    await expect.poll(() => page.locator("#message").textContent()).toBe("time advanced by +7 days");
    await expect.poll(() => clock.textContent()).not.toContain(shown(loaded.chains[0].time));
    await page.getByRole("button", { name: "Reset world" }).click();
    await expect.poll(() => page.locator("#message").textContent()).toBe("back to the world as loaded");
    expect((await call(sim, "/_sim/time")).body.chains[0].timestamp).toBeLessThan(advanced.chains[0].timestamp);
    await expect.poll(() => page.locator('[data-testid="snapshots"] li').count()).toBe(0);
    await page.screenshot({ path: `${SHOTS}/control.png` });
  });

  it("says when the control API does not answer (a chain away: 503), and stops saying so once it answers", async () => {
    const notice = page.locator("#control-off");
    const chainAway = { error: "CHAIN_UNAVAILABLE", message: "A chain did not answer as it should", errors: ["the node does not answer"] };
    const time = `${sim.url}/_sim/time`;
    await page.route(time, (route) => route.fulfill({ status: 503, contentType: "application/json", body: JSON.stringify(chainAway) }));
    await page.goto(`${sim.url}/`);
    await expect.poll(() => notice.isVisible()).toBe(true);
    expect(await notice.textContent()).toBe("The control API did not answer: 503 CHAIN_UNAVAILABLE: the node does not answer");
    await page.unroute(time);
    await page.getByRole("button", { name: "+1 hour" }).click();
    await expect.poll(() => notice.isVisible()).toBe(false);
    expect(failures).toEqual([]);
  });

  it("adds a fault rule the API then applies, and removes it, from the control panel", async () => {
    await page.goto(`${sim.url}/`);
    const { body: list } = await call(sim, "/api/v2/collection?chainId=56&perPage=1");
    const collection = list.collections[0].address;
    await page.getByRole("combobox", { name: "effect" }).selectOption("503");
    await page.getByRole("button", { name: "Add" }).click();
    const rules = page.locator('[data-testid="faults"] li');
    await expect.poll(() => rules.allTextContents()).toEqual([expect.stringMatching(/^\/api\/v2\/item\/new: status 503 \(applied 0\)/)]);
    const { body: faults } = await call(sim, "/_sim/faults");
    expect(faults.faults).toMatchObject([{ match: { path: "/api/v2/item/new" }, effect: { status: 503 } }]);

    const heads = await chainHeads(sim);
    expectErrorBody((await postJson(sim, MINT, mintBody(sim, collection, 56))).body, "CHAIN_UNAVAILABLE");
    expect(await chainHeads(sim)).toEqual(heads);
    await page.reload();
    await expect.poll(() => rules.allTextContents()).toEqual([expect.stringMatching(/\(applied 1\)/)]);

    await rules.getByRole("button", { name: "remove" }).click();
    await expect.poll(() => rules.count()).toBe(0);
    expect((await call(sim, "/_sim/faults")).body.faults).toEqual([]);
    expect((await postJson(sim, MINT, mintBody(sim, collection, 56))).status).toBe(200);
    expect(failures).toEqual([]);
  });
});
