import { mkdirSync } from "node:fs";
import { chromium, type Browser, type Page } from "playwright-core";
import { afterAll, beforeAll, expect, it } from "vitest";
import type { Simulator } from "../../src/simulator/simulator.ts";
import { CHROMIUM, describeInChromium } from "../chromium.ts";
import { call, chainHeads, DEMO_KEYS, expectErrorBody, mintBody, mintItem, postJson, startDemo } from "../harness.ts";

// The dashboard at / in headless Chromium (Debian's; never a downloaded browser), against a real
// simulator: list → collection → item history shows what the API answers; paging and a filter; a
// mint made through the API appears without a reload (the page follows /_sim/events) and a reset
// takes it away again; the control panel moves
// time, takes a snapshot and reverts to it, resets, and adds and removes a fault rule that the API
// then applies. Screenshots go to test-artifacts/dashboard/.

const SHOTS = "test-artifacts/dashboard";

/** How many pixels of a chart's canvas have its series' colour: the series was drawn, not only the axes. */
function drawn(page: Page, testid: string, [r, g, b]: number[]): Promise<number> {
  return page.evaluate(
    ({ testid, r, g, b }) => {
      const canvas = document.querySelector(`[data-testid="${testid}"] canvas`) as HTMLCanvasElement | null;
      if (!canvas) return 0;
      const { data } = canvas.getContext("2d")!.getImageData(0, 0, canvas.width, canvas.height);
      let count = 0;
      for (let i = 0; i < data.length; i += 4)
        if (
          data[i + 3]! > 0 &&
          Math.abs(data[i]! - r) < 8 &&
          Math.abs(data[i + 1]! - g) < 8 &&
          Math.abs(data[i + 2]! - b) < 8
        )
          count++;
      return count;
    },
    { testid, r, g, b },
  );
}

/** Every image on the page has loaded, with a picture in it. */
async function expectImagesLoaded(page: Page): Promise<void> {
  await page.evaluate(() => Promise.all([...document.images].map((image) => image.decode().catch(() => undefined))));
  await expect
    .poll(() =>
      page.evaluate(() =>
        [...document.images].filter((image) => !image.complete || image.naturalWidth === 0).map((image) => image.src),
      ),
    )
    .toEqual([]);
  expect(await page.evaluate(() => document.images.length)).toBeGreaterThan(0);
}

describeInChromium("the dashboard in Chromium", () => {
  let sim: Simulator;
  let browser: Browser;
  let page: Page;
  const failures: string[] = [];
  const names = (rows: ReturnType<Page["locator"]>) => rows.locator("td:first-child").allTextContents();

  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    sim = await startDemo();
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ["--no-sandbox", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
    });
    page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    page.on("pageerror", (error) => failures.push(error.message));
    // Nothing but the simulator: a CDN request would fail the test.
    await page.route("**/*", (route) =>
      route.request().url().startsWith(sim.url)
        ? route.continue()
        : (failures.push(`outside request: ${route.request().url()}`), route.abort()),
    );
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
    const cards = page.locator('[data-testid="item-card"]');
    await expect.poll(() => cards.count()).toBe(items.items.length);
    expect(await cards.locator("strong").allTextContents()).toEqual(
      items.items.map((item: { name: string }) => item.name),
    );
    await page.screenshot({ path: `${SHOTS}/collection.png` });

    const first = items.items[0];
    await cards.first().click();
    const { body: history } = await call(sim, `/api/v2/item/events/${target.address}/${first.tokenId}?perPage=25`);
    const historyRows = page.locator('[data-testid="history"] tbody tr');
    await expect.poll(() => historyRows.count()).toBe(history.events.length);
    expect(await names(historyRows)).toEqual(history.events.map((e: { event: string }) => e.event));
    await page.screenshot({ path: `${SHOTS}/item.png` });
  });

  it("an item's page: image, name, description, properties, supply, holders, open listings and its sale prices drawn", async () => {
    const { body: list } = await call(sim, "/api/v2/collection?perPage=100");
    let item: any;
    for (const c of list.collections) {
      const { body } = await call(sim, `/_sim/collections/${c.address}/items`);
      for (const { tokenId } of body.items) {
        const { body: whole } = await call(sim, `/_sim/collections/${c.address}/items/${tokenId}`);
        if (whole.sales.length > 0 && whole.listings.length > 0 && whole.properties.length > 0) item = whole;
      }
    }
    expect(item, "the demo world has an item with sales, an open listing and properties").toBeDefined();
    await page.goto(`${sim.url}/#/item/${item.collectionAddress}/${item.tokenId}`);
    await expect.poll(() => page.locator("h1").textContent()).toBe(item.name);
    expect(await page.getByText(item.description).count()).toBe(1);
    expect(await page.locator('[data-testid="properties"] li').allTextContents()).toEqual(
      item.properties.map(
        (p: { name: string; value: string; static: boolean }) => `${p.name} ${p.value}${p.static ? " · static" : ""}`,
      ),
    );
    expect(await page.locator('[data-testid="supply"]').textContent()).toBe(
      `${BigInt(item.supply).toLocaleString("en-US")} of at most ${BigInt(item.maxSupply).toLocaleString("en-US")}`,
    );
    expect(await page.locator('[data-testid="holders"] tbody tr').count()).toBe(item.holders.length);
    expect(await page.locator('[data-testid="listings"] tbody tr td:first-child').allTextContents()).toEqual(
      item.listings.map((l: { listingId: string }) => `#${l.listingId}`),
    );
    await expect.poll(() => drawn(page, "price-chart", [216, 100, 59])).toBeGreaterThan(20);
    expect(await page.locator('[data-testid="price-chart"]').getAttribute("data-points")).toBe(
      String(item.sales.length),
    );
    await expectImagesLoaded(page);
    await page.screenshot({ path: `${SHOTS}/item-page.png`, fullPage: true });
  });

  it("a collection's page: image, a grid of its items with their images, and its volume per day drawn", async () => {
    const { body } = await call(sim, "/api/v2/collection?perPage=1&sortBy=volume_all&sortDir=desc");
    const target = body.collections[0];
    const { body: volume } = await call(sim, `/_sim/collections/${target.address}/volume`);
    expect(volume.days.length).toBeGreaterThan(0);
    await page.goto(`${sim.url}/#/collection/${target.address}`);
    await expect.poll(() => drawn(page, "volume-chart", [59, 111, 216])).toBeGreaterThan(20);
    expect(await page.locator('[data-testid="volume-chart"]').getAttribute("data-points")).toBe(
      String(volume.days.length),
    );
    const { body: items } = await call(sim, `/_sim/collections/${target.address}/items`);
    expect(await page.locator('[data-testid="item-card"] img').count()).toBe(items.items.length);
    await expectImagesLoaded(page);
    // Each card shows the item's own image where it has one.
    const sources = await page
      .locator('[data-testid="item-card"] img')
      .evaluateAll((images) => images.map((image) => (image as HTMLImageElement).src));
    items.items.forEach((item: { image: string }, i: number) => item.image && expect(sources[i]).toBe(item.image));
    await page.screenshot({ path: `${SHOTS}/collection-page.png`, fullPage: true });
    // A collection's website in the shipped worlds is its page here, by chain and slug.
    await page.goto(`${sim.url}/#/collection/${target.chainId}/${target.slug}`);
    await expect.poll(() => page.locator("h1").textContent()).toBe(target.name);
    expect(failures).toEqual([]);
  });

  it("pages through the list and filters it, showing what the API answers for the same query", async () => {
    await page.goto(`${sim.url}/#/?perPage=2`);
    const rows = page.locator('[data-testid="collections"] tbody tr');
    const pageOf = async (query: string) =>
      (await call(sim, `/api/v2/collection?${query}`)).body.collections.map((c: { name: string }) => c.name);
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

  it("follows /_sim/events: a mint made through the API appears without a reload, and a reset takes it away", async () => {
    const { body: list } = await call(sim, "/api/v2/collection?chainId=56&perPage=1");
    const collection = list.collections[0].address;
    await page.goto(`${sim.url}/#/collection/${collection}`);
    const cards = page.locator('[data-testid="item-card"]');
    const { body: before } = await call(sim, `/_sim/collections/${collection}/items`);
    await expect.poll(() => cards.count()).toBe(before.items.length);
    expect(await page.getByText("Fresh From The API").count()).toBe(0);

    const minted = await mintItem(sim, {
      collection,
      chainId: 56,
      item: { name: "Fresh From The API", imageUrl: "https://images.example/fresh.png" },
    });
    expect(minted.status).toBe(200);
    await expect.poll(() => cards.count(), { timeout: 10_000 }).toBe(before.items.length + 1);
    expect(await page.getByText("Fresh From The API").count()).toBe(1);
    // An image URL off the simulator (no network here) falls back to the simulator's own picture.
    await expectImagesLoaded(page);
    const outside = failures.findIndex((failure) => failure.includes("images.example"));
    expect(outside, "the page asked for the image the mint named").toBeGreaterThanOrEqual(0);
    failures.splice(outside, 1);
    expect(await page.locator('[data-testid="live"]').textContent()).toBe("live");
    const { body: log } = await call(sim, "/_sim/requests?limit=1000");
    expect(
      log.requests.map((r: { path: string }) => r.path),
      "the dashboard's own stream is not logged",
    ).not.toContain("/_sim/events");

    // The item's page hears its mint taken back by a reset (back to the world as loaded).
    await page.goto(`${sim.url}/#/item/${collection}/${minted.body.tokenIds[0]}`);
    await expect.poll(() => page.locator("h1").textContent()).toBe("Fresh From The API");
    expect((await postJson(sim, "/_sim/reset", {})).status).toBe(200);
    await expect.poll(() => page.locator("#view").textContent(), { timeout: 10_000 }).toMatch(/404/);
    // The item's page asked for its image off the simulator again.
    for (let i = failures.length - 1; i >= 0; i--) if (failures[i]!.includes("images.example")) failures.splice(i, 1);
  });

  it("shows the request log, filtered, and a request's details with its bodies, API keys masked", async () => {
    const { body: list } = await call(sim, "/api/v2/collection?chainId=56&perPage=1");
    const refused = await mintItem(sim, {
      collection: list.collections[0].address,
      chainId: 56,
      item: { royaltyFee: 300 },
    });
    expect(refused.status).toBe(422);
    await page.goto(`${sim.url}/`);
    await page.getByRole("textbox", { name: "request status" }).fill("4xx");
    await page.getByRole("combobox", { name: "request method" }).selectOption("POST");
    const requests = page.locator('[data-testid="requests"] li');
    await expect.poll(() => requests.first().textContent()).toMatch(/^422 POST \/api\/v2\/item\/new\?apiKey=demo… /);
    // The list is redrawn as each filter changes: once the last one applies, every entry is a 4xx POST.
    await expect
      .poll(async () => (await requests.allTextContents()).filter((text) => !/^4\d\d POST /.test(text)))
      .toEqual([]);
    await requests.first().getByRole("button").click();
    const dialog = page.locator('[data-testid="request-dialog"]');
    await expect.poll(() => dialog.isVisible()).toBe(true);
    expect(await dialog.locator('[data-testid="request-query"]').textContent()).toBe("apiKey=demo…");
    expect(JSON.parse((await dialog.locator('[data-testid="request-body"]').textContent())!)).toEqual(
      mintBody(sim, list.collections[0].address, 56, { royaltyFee: 300 }),
    );
    expect(JSON.parse((await dialog.locator('[data-testid="response-body"]').textContent())!)).toEqual(refused.body);
    expect(await dialog.textContent()).not.toContain(DEMO_KEYS.studio);
    await page.screenshot({ path: `${SHOTS}/request.png` });
    await dialog.getByRole("button", { name: "Close" }).click();
    await expect.poll(() => dialog.isVisible()).toBe(false);
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
    expect(reverted.chains.map((c: { timestamp: number }) => c.timestamp)).toEqual(
      loaded.chains.map((c: { timestamp: number }) => c.timestamp),
    );
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
    const chainAway = {
      error: "CHAIN_UNAVAILABLE",
      message: "A chain did not answer as it should",
      errors: ["the node does not answer"],
    };
    const time = `${sim.url}/_sim/time`;
    await page.route(time, (route) =>
      route.fulfill({ status: 503, contentType: "application/json", body: JSON.stringify(chainAway) }),
    );
    await page.goto(`${sim.url}/`);
    await expect.poll(() => notice.isVisible()).toBe(true);
    expect(await notice.textContent()).toBe(
      "The control API did not answer: 503 CHAIN_UNAVAILABLE: the node does not answer",
    );
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
    await expect
      .poll(() => rules.allTextContents())
      .toEqual([expect.stringMatching(/^\/api\/v2\/item\/new: status 503 \(applied 0\)/)]);
    const { body: faults } = await call(sim, "/_sim/faults");
    expect(faults.faults).toMatchObject([{ match: { path: "/api/v2/item/new" }, effect: { status: 503 } }]);

    const heads = await chainHeads(sim);
    expectErrorBody((await mintItem(sim, { collection, chainId: 56 })).body, "CHAIN_UNAVAILABLE");
    expect(await chainHeads(sim)).toEqual(heads);
    await page.reload();
    await expect.poll(() => rules.allTextContents()).toEqual([expect.stringMatching(/\(applied 1\)/)]);

    await rules.getByRole("button", { name: "remove" }).click();
    await expect.poll(() => rules.count()).toBe(0);
    expect((await call(sim, "/_sim/faults")).body.faults).toEqual([]);
    expect((await mintItem(sim, { collection, chainId: 56 })).status).toBe(200);
    expect(failures).toEqual([]);
  });
});
