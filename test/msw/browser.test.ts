import { execFile } from "node:child_process";
import {
  copyFileSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
} from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { extname, join, normalize, resolve } from "node:path";
import { promisify } from "node:util";
import { chromium, type Browser, type Page } from "playwright-core";
import { gzipSync } from "node:zlib";
import { build } from "vite";
import { afterAll, beforeAll, expect, it } from "vitest";
import { setupServer } from "msw/node";
import { createHandlers, DEFAULT_SNAPSHOTS } from "../../src/msw/index.ts";
import { WORLD_FILE, type WorldFile } from "../../src/msw/world-file.ts";
import { DEFAULT_WORLD_FILE, fixtureWorld, SNAPSHOT_BASE_URL } from "../../src/scenario/worlds.ts";
import { startSimulator, type Simulator } from "../../src/simulator/simulator.ts";
import { CHROMIUM, describeInChromium } from "../chromium.ts";

// The browser build of `nft-service-simulator/msw`, as a frontend team gets it: the package built
// by its own build (scripts/build.ts) and laid out as npm installs it, a page importing
// `{ handlers }` from the package's entry, bundled by Vite (which picks the "browser" condition),
// served, and driven in Chromium through MSW's service worker. Every snapshotted request, and some
// no snapshot holds, must answer with the simulator's status and bytes.

const TYPES: Record<string, string> = { ".html": "text/html", ".js": "text/javascript", ".json": "application/json" };
const run = promisify(execFile);

describeInChromium("MSW handlers in Chromium, imported through the package entry by a page Vite built", () => {
  const work = mkdtempSync(join(tmpdir(), "msw-page-"));
  const modules = join(work, "node_modules");
  const pkg = join(modules, "nft-service-simulator");
  const site = join(work, "site");
  let sim: Simulator;
  let server: Server;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    const simulator = startSimulator(fixtureWorld(DEFAULT_WORLD_FILE, { baseUrl: SNAPSHOT_BASE_URL }), {
      port: 0,
      serveRpc: false,
    });
    // The package as installed: its package.json, fixtures and a fresh build; its dependencies and msw beside it, as npm hoists them.
    mkdirSync(pkg, { recursive: true });
    for (const entry of readdirSync("node_modules"))
      if (!entry.startsWith(".")) symlinkSync(resolve("node_modules", entry), join(modules, entry));
    copyFileSync("package.json", join(pkg, "package.json"));
    symlinkSync(resolve("fixtures"), join(pkg, "fixtures"));
    await run(process.execPath, ["scripts/build.ts", "--out-dir", join(pkg, "dist")], { maxBuffer: 20e6 });
    // The page, and the worker script MSW ships (what `npx msw init` copies into a public folder).
    cpSync("test/msw/browser", site, { recursive: true });
    mkdirSync(join(site, "public"));
    copyFileSync(join(modules, "msw/lib/mockServiceWorker.js"), join(site, "public/mockServiceWorker.js"));
    await build({
      configFile: false,
      logLevel: "warn",
      root: site,
      publicDir: join(site, "public"),
      build: {
        outDir: join(work, "out"),
        emptyOutDir: true,
        target: "esnext",
        reportCompressedSize: false,
        chunkSizeWarningLimit: 50_000,
      },
    });
    server = createServer((request, response) => {
      const path = normalize(new URL(request.url!, "http://x").pathname).replace(/^(\.\.[/\\])+/, "");
      const file = join(work, "out", path === "/" ? "index.html" : path);
      if (!existsSync(file)) return void response.writeHead(404).end("not here");
      response
        .writeHead(200, { "content-type": TYPES[extname(file)] ?? "application/octet-stream" })
        .end(readFileSync(file));
    });
    await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ["--no-sandbox", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
    });
    page = await browser.newPage();
    await page.goto(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
    await page.waitForFunction(() => (window as unknown as { mockReady?: boolean }).mockReady === true, undefined, {
      timeout: 30_000,
    });
    sim = await simulator;
  }, 240_000);

  afterAll(async () => {
    await browser?.close();
    await new Promise((done) => (server ? server.close(done) : done(undefined)));
    await sim?.close();
    rmSync(work, { recursive: true, force: true });
  });

  it("the bundle took the package's browser build, with the default world in it", () => {
    const bundled = readdirSync(join(work, "out/assets"))
      .map((file) => readFileSync(join(work, "out/assets", file), "utf8"))
      .join("\n");
    const size = (bytes: number) => `${(bytes / 1e6).toFixed(2)} MB`;
    console.log(`the page's bundle: ${size(Buffer.byteLength(bundled))}, ${size(gzipSync(bundled).length)} gzipped`);
    // The world the handlers fold: each chain's logs, the last one's transaction among them.
    const { chains } = JSON.parse(readFileSync(join(DEFAULT_SNAPSHOTS, WORLD_FILE), "utf8")) as WorldFile;
    for (const { logs } of chains) expect(bundled).toContain(logs.at(-1)![4]);
    expect(bundled).not.toContain("node:fs");
  });

  it("answers every snapshotted request, and pages, sorts, filters and bad input no snapshot holds, with the simulator's status and bytes", async () => {
    const index = JSON.parse(readFileSync(join(DEFAULT_SNAPSHOTS, "index.json"), "utf8")) as {
      responses: { url: string }[];
    };
    const [first] = (await fetch(`${sim.url}/api/v2/collection?perPage=1`).then((r) => r.json())).collections as {
      address: string;
    }[];
    const urls = [
      ...index.responses.map(({ url }) => url),
      "/api/v2/collection?sortBy=volume_30d&sortDir=asc&perPage=9&page=2",
      "/api/v2/collection?genre=Gaming&chainId=56",
      `/api/v2/item/events/${first!.address}/1?perPage=2&page=2`,
      "/api/v2/collection?perPage=0&sortBy=nope",
      `/api/v2/item/events/${first!.address}/999999`,
      "/api/v2/collection/0x12",
    ];
    expect(index.responses.length).toBeGreaterThan(1000);
    // The page's fetches go through MSW's service worker (the static server answers 404 for them).
    expect(await page.evaluate(() => navigator.serviceWorker.controller?.scriptURL)).toMatch(
      /\/mockServiceWorker\.js$/,
    );
    const mocked = await page.evaluate(async (paths) => {
      const answers: [number, string][] = [];
      for (const path of paths) {
        const response = await fetch(path);
        answers.push([response.status, await response.text()]);
      }
      return answers;
    }, urls);
    const differing: string[] = [];
    for (const [i, url] of urls.entries()) {
      // The bundle carries no image bytes: it draws the simulator's picture as SVG, as /images/<seed>.svg answers it.
      const real = await fetch(`${sim.url}${url.startsWith("/images/") ? url.replace(/\.png$/, ".svg") : url}`);
      const answer: [number, string] = [real.status, await real.text()];
      if (mocked[i]![0] !== answer[0] || mocked[i]![1] !== answer[1])
        differing.push(`${url}: ${mocked[i]![0]} vs ${answer[0]}`);
    }
    expect(differing).toEqual([]);
    expect(urls.filter((url) => url.startsWith("/images/")).length).toBeGreaterThan(250);
    const width = await page.evaluate(
      async (src) => {
        const image = new Image();
        image.src = src;
        await image.decode();
        return image.naturalWidth;
      },
      urls.find((url) => url.startsWith("/images/"))!,
    );
    expect(width, "an image the answers name shows in the page").toBe(512);
  }, 120_000);

  it("mints as the handlers in Node do (its description written as bytes with no Buffer), and answers what it minted", async () => {
    const [first] = (await fetch(`${sim.url}/api/v2/collection?perPage=1&chainId=56`).then((r) => r.json()))
      .collections as { address: string; slug: string }[];
    const item = { name: "Café ☕ Sword", description: "naïve 🗡", initialSupply: 2, isStackable: false };
    const body = JSON.stringify({
      collectionAddress: first!.address,
      recipient: `0x${"1".repeat(40)}`,
      chainId: 56,
      item,
    });
    const requests = [
      { method: "POST", path: "/api/v2/item/new?apiKey=demo-studio-key", body },
      // Its metadata too large to go on chain (413), measured in UTF-8 bytes.
      {
        method: "POST",
        path: "/api/v2/item/new?apiKey=demo-studio-key",
        body: JSON.stringify({
          ...JSON.parse(body),
          item: {
            ...item,
            description: "é".repeat(5000),
            properties: Array.from({ length: 20 }, (_, i) => ({ name: `p${i}`, value: "€".repeat(300) })),
          },
        }),
      },
    ];
    const send = async (base: string, { method, path, body }: { method: string; path: string; body: string }) => {
      const response = await fetch(`${base}${path}`, { method, headers: { "content-type": "application/json" }, body });
      return [response.status, await response.text()] as [number, string];
    };
    const inPage = await page.evaluate(
      async ({ requests }) => {
        const answers: [number, string][] = [];
        for (const { method, path, body } of requests) {
          const response = await fetch(path, { method, headers: { "content-type": "application/json" }, body });
          answers.push([response.status, await response.text()]);
        }
        return answers;
      },
      { requests },
    );
    const NODE = "http://node-mock.example";
    const node = setupServer(...createHandlers({ baseUrl: NODE }));
    node.listen({ onUnhandledRequest: "bypass" });
    try {
      const inNode: [number, string][] = [];
      for (const request of requests) inNode.push(await send(NODE, request));
      expect(inPage).toEqual(inNode);
      expect(inPage.map(([status]) => status)).toEqual([200, 413]);
      const { tokenIds } = JSON.parse(inPage[0]![1]) as { tokenIds: number[] };
      const metadata = `/metadata/56/${first!.slug}/${tokenIds[1]}`;
      const pageMetadata = await page.evaluate(async (path) => (await fetch(path)).text(), metadata);
      expect(pageMetadata).toBe(await (await fetch(`${NODE}${metadata}`)).text());
      expect(JSON.parse(pageMetadata)).toMatchObject({
        name: item.name,
        description: item.description,
        maximumSupply: 2,
      });
    } finally {
      node.close();
    }
  });
});

it("the package's types follow the condition: the browser entry declares what the browser build exports", () => {
  const manifest = JSON.parse(readFileSync("package.json", "utf8")) as {
    exports: Record<string, Record<string, unknown>>;
  };
  const msw = manifest.exports["./msw"]!;
  expect(Object.keys(msw)[0], "the browser condition is looked at first").toBe("browser");
  expect(msw.browser).toEqual({ types: "./dist/msw/browser.d.ts", default: "./dist/msw/browser.js" });
  expect(msw).toMatchObject({ types: "./dist/msw/index.d.ts", default: "./dist/msw/index.js" });
});
