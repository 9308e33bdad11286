import fc from "fast-check";
import { get as httpGet } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { draw, picture } from "../../src/images/identicon.ts";
import type { Simulator } from "../../src/simulator/simulator.ts";
import { call, expectErrorBody, startDemo } from "../harness.ts";

// The simulator's own images: every image URL the demo world's answers hold is served by the
// simulator itself, as PNG, and the same seed always gives the same bytes.

let sim: Simulator;
beforeAll(async () => {
  sim = await startDemo();
});
afterAll(() => sim?.close());

const get = async (path: string, init: RequestInit = {}) => {
  const response = await fetch(`${sim.url}${path}`, init);
  return { response, bytes: Buffer.from(await response.arrayBuffer()) };
};
/** A PNG's width and height, from its IHDR chunk. */
const pngSize = (bytes: Buffer) => ({
  png: bytes.subarray(1, 4).toString(),
  width: bytes.readUInt32BE(16),
  height: bytes.readUInt32BE(20),
});

describe("images", () => {
  it("every image URL of the demo world's collections and items is on the simulator and loads as a PNG", async () => {
    const { body } = await call(sim, "/api/v2/collection?perPage=100");
    const urls: string[] = [];
    for (const { address, image, uri } of body.collections) {
      if (image) urls.push(image);
      const { body: items } = await call(sim, `/_sim/collections/${address}/items`);
      for (const { tokenId } of items.items) {
        const metadata = await fetch(`${uri}/${tokenId}`).then((r) => r.json());
        if (metadata.image) urls.push(metadata.image);
      }
    }
    expect(urls.length).toBeGreaterThanOrEqual(8);
    for (const url of urls) {
      expect(url.startsWith(`${sim.url}/images/`), url).toBe(true);
      const response = await fetch(url);
      expect(response.headers.get("content-type")).toBe("image/png");
      expect(pngSize(Buffer.from(await response.arrayBuffer()))).toEqual({ png: "PNG", width: 512, height: 512 });
    }
  });

  it("PNG at the size asked for, SVG for browsers, the same bytes each time", async () => {
    const small = await get("/images/dragon-riders.png?size=64");
    expect(pngSize(small.bytes)).toEqual({ png: "PNG", width: 64, height: 64 });
    expect((await get("/images/dragon-riders.png?size=64")).bytes.equals(small.bytes)).toBe(true);
    const svg = await get("/images/dragon-riders.svg");
    expect(svg.response.headers.get("content-type")).toBe("image/svg+xml");
    expect(svg.bytes.toString()).toMatch(/^<svg xmlns="http:\/\/www.w3.org\/2000\/svg" width="512" height="512"/);
    expect(small.response.headers.get("cache-control")).toBe("public, max-age=86400");
  });

  it("a client holding the picture revalidates it: 304 with its ETag", async () => {
    const first = await get("/images/nitro-boost.png");
    const etag = first.response.headers.get("etag")!;
    expect(etag).toMatch(/^"[A-Za-z0-9_-]+"$/);
    // Not through fetch, which adds `cache-control: no-cache` to a conditional request (as browsers' reloads do).
    const again = await new Promise<{ status: number; length: number }>((resolve, reject) =>
      httpGet(`${sim.url}/images/nitro-boost.png`, { headers: { "if-none-match": etag } }, (response) => {
        let length = 0;
        response.on("data", (chunk: Buffer) => (length += chunk.length));
        response.on("end", () => resolve({ status: response.statusCode!, length }));
      }).on("error", reject),
    );
    expect(again).toEqual({ status: 304, length: 0 });
  });

  it("a bad seed or size is a 400 with the error body", async () => {
    for (const path of [
      "/images/.hidden.png",
      "/images/a%20b.png",
      `/images/${"x".repeat(129)}.png`,
      "/images/a.png?size=8",
      "/images/a.png?size=0x40",
      "/images/a.svg?size=2000",
      "/images/a.png?width=3",
    ]) {
      const { status, body } = await call(sim, path);
      expect(status, path).toBe(400);
      expectErrorBody(body, "VALIDATION_FAILED");
    }
    expect((await call(sim, "/images/a.gif")).status).toBe(404);
  });

  it("any seed gives one picture, the same on every draw, at its size", () => {
    const seed = fc.stringMatching(/^[A-Za-z0-9][A-Za-z0-9._-]{0,40}$/);
    fc.assert(
      fc.property(seed, fc.integer({ min: 16, max: 300 }), (name, size) => {
        const drawn = picture(name, "png", size).bytes;
        expect(pngSize(drawn)).toEqual({ png: "PNG", width: size, height: size });
        expect(draw(name, "png", size).equals(drawn)).toBe(true);
      }),
      { numRuns: 40 },
    );
  });
});
