import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { extname, join, normalize } from "node:path";
import { chromium, type Browser, type Page } from "playwright-core";
import { build } from "vite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_SNAPSHOTS } from "../../src/msw/index.ts";
import { DEFAULT_WORLD_FILE, fixtureWorld, SNAPSHOT_BASE_URL } from "../../src/scenario/world.ts";
import { startSimulator, type Simulator } from "../../src/simulator.ts";

const CHROMIUM = "/usr/bin/chromium";
const TYPES: Record<string, string> = { ".html": "text/html", ".js": "text/javascript", ".json": "application/json" };

describe.skipIf(!existsSync(CHROMIUM))("MSW handlers in Chromium, through the service worker of a page built with Vite (skipped without /usr/bin/chromium)", () => {
  const dir = mkdtempSync(join(tmpdir(), "msw-page-"));
  let sim: Simulator;
  let site: Server;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    const simulator = startSimulator(fixtureWorld(DEFAULT_WORLD_FILE, { baseUrl: SNAPSHOT_BASE_URL }), { port: 0, serveRpc: false });
    // The worker script MSW ships (what `npx msw init` copies into a public folder).
    mkdirSync(join(dir, "public"));
    copyFileSync(join(process.cwd(), "node_modules/msw/lib/mockServiceWorker.js"), join(dir, "public/mockServiceWorker.js"));
    await build({
      configFile: false,
      logLevel: "warn",
      root: join(process.cwd(), "test/msw/browser"),
      publicDir: join(dir, "public"),
      build: { outDir: join(dir, "out"), emptyOutDir: true, target: "esnext", reportCompressedSize: false, chunkSizeWarningLimit: 50_000 },
    });
    site = createServer((request, response) => {
      const path = normalize(new URL(request.url!, "http://x").pathname).replace(/^(\.\.[/\\])+/, "");
      const file = join(dir, "out", path === "/" ? "index.html" : path);
      if (!existsSync(file)) return void response.writeHead(404).end("not here");
      response.writeHead(200, { "content-type": TYPES[extname(file)] ?? "application/octet-stream" }).end(readFileSync(file));
    });
    await new Promise<void>((resolve) => site.listen(0, "127.0.0.1", resolve));
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ["--no-sandbox", "--disable-background-networking", "--disable-component-update", "--disable-sync"] });
    page = await browser.newPage();
    await page.goto(`http://127.0.0.1:${(site.address() as AddressInfo).port}/`);
    await page.waitForFunction(() => (window as unknown as { mockReady?: boolean }).mockReady === true, undefined, { timeout: 30_000 });
    sim = await simulator;
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await new Promise((resolve) => site?.close(resolve));
    await sim?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("answers the page's requests with the simulator's status and bytes: snapshotted, unsnapshotted and bad ones", async () => {
    const index = JSON.parse(readFileSync(join(DEFAULT_SNAPSHOTS, "index.json"), "utf8")) as { responses: { url: string }[] };
    const sample = index.responses.filter((_, i) => i % 25 === 0).map(({ url }) => url);
    const [first] = (await fetch(`${sim.url}/api/v2/collection?perPage=1`).then((r) => r.json())).collections as { address: string }[];
    const urls = [
      ...sample,
      "/api/v2/collection?sortBy=volume_30d&sortDir=asc&perPage=9&page=2",
      "/api/v2/collection?genre=Gaming&chainId=56",
      `/api/v2/item/events/${first!.address}/1?perPage=2&page=2`,
      "/api/v2/collection?perPage=0&sortBy=nope",
      `/api/v2/item/events/${first!.address}/999999`,
      "/api/v2/collection/0x12",
    ];
    // The page's fetches go through MSW's service worker (the static server answers 404 for them).
    expect(await page.evaluate(() => navigator.serviceWorker.controller?.scriptURL)).toMatch(/\/mockServiceWorker\.js$/);
    const mocked = await page.evaluate(async (paths) => Promise.all(paths.map(async (path) => {
      const response = await fetch(path);
      return [response.status, await response.text()] as [number, string];
    })), urls);
    for (const [i, url] of urls.entries()) {
      const real = await fetch(`${sim.url}${url}`);
      expect(mocked[i], url).toEqual([real.status, await real.text()]);
    }
  });
});
