import { readFileSync } from "node:fs";
import { join } from "node:path";
import { setupServer } from "msw/node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHandlers, DEFAULT_SNAPSHOTS } from "../../src/msw/index.ts";
import { COLLECTION_FIELDS } from "../../src/schemas/collection.ts";
import { DEFAULT_WORLD_FILE, fixtureWorld, SNAPSHOT_BASE_URL } from "../../src/scenario/worlds.ts";
import { startSimulator, type Simulator } from "../../src/simulator/simulator.ts";

// The mock answers on an origin of its own; everything else reaches the real simulator.
const MOCK = "http://mock.example";
const index = JSON.parse(readFileSync(join(DEFAULT_SNAPSHOTS, "index.json"), "utf8")) as {
  responses: { url: string; status: number }[];
};
const mock = setupServer(...createHandlers({ baseUrl: MOCK }));
let sim: Simulator;

beforeAll(async () => {
  // As the snapshots were taken: the default world, collection uris on the snapshot base URL.
  sim = await startSimulator(fixtureWorld(DEFAULT_WORLD_FILE, { baseUrl: SNAPSHOT_BASE_URL }), {
    port: 0,
    serveRpc: false,
  });
  mock.listen({ onUnhandledRequest: "bypass" });
});

afterAll(async () => {
  mock.close();
  await sim?.close();
});

async function both(
  url: string,
  init?: RequestInit,
): Promise<{ real: [number, string]; mocked: [number, string]; type: string | null; realType: string | null }> {
  const [real, mocked] = await Promise.all([fetch(`${sim.url}${url}`, init), fetch(`${MOCK}${url}`, init)]);
  // An image's bytes, compared as base64.
  const body = async (response: Response) =>
    url.startsWith("/images/") ? Buffer.from(await response.arrayBuffer()).toString("base64") : response.text();
  return {
    real: [real.status, await body(real)],
    mocked: [mocked.status, await body(mocked)],
    type: mocked.headers.get("content-type"),
    realType: real.headers.get("content-type"),
  };
}

async function expectSame(urls: string[], init?: () => RequestInit): Promise<void> {
  for (const url of urls) {
    const { real, mocked, type, realType } = await both(url, init?.());
    expect(mocked, `${init?.().method ?? "GET"} ${url}`).toEqual(real);
    expect(type).toBe(url.startsWith("/images/") ? "image/png" : "application/json; charset=utf-8");
    expect(type).toBe(realType);
  }
}

describe("MSW handlers answer as the simulator does, byte for byte", () => {
  it(`for every snapshotted request (${index.responses.length})`, async () => {
    await expectSame(index.responses.map(({ url }) => url));
  });

  it("for list pages, sorts and filters no snapshot holds", async () => {
    const urls: string[] = [];
    for (const sortBy of COLLECTION_FIELDS) {
      for (const sortDir of ["asc", "desc"])
        urls.push(`/api/v2/collection?sortBy=${sortBy}&sortDir=${sortDir}&perPage=7&page=2`);
    }
    urls.push(
      "/api/v2/collection",
      "/api/v2/collection?perPage=100",
      "/api/v2/collection?perPage=5&page=8",
      "/api/v2/collection?page=99",
      "/api/v2/collection?genre=Gaming&chainId=137&sortBy=holders&sortDir=asc",
      "/api/v2/collection?isVerified=true&perPage=3",
      "/api/v2/collection?chainId=56&isVerified=false",
      "/api/v2/collection?apiKey=anything&perPage=2",
    );
    const { body } = await fetch(`${sim.url}/api/v2/collection?perPage=3`).then(async (r) => ({
      body: (await r.json()) as {
        collections: { address: string; ownerAddress: string; name: string; slug: string }[];
      },
    }));
    for (const { address, ownerAddress, name, slug } of body.collections) {
      urls.push(
        `/api/v2/collection?address=${address.toUpperCase().replace("0X", "0x")}`,
        `/api/v2/collection?ownerAddress=${ownerAddress}`,
        `/api/v2/collection?name=${encodeURIComponent(name)}`,
        `/api/v2/collection?slug=${slug}`,
      );
      urls.push(
        `/api/v2/collection/${address.toUpperCase().replace("0X", "0x")}`,
        `/api/v2/collection/${address}?chainId=1`,
      );
      urls.push(
        `/api/v2/item/events/${address}/1?perPage=3&page=2`,
        `/api/v2/item/events/${address}/1?perPage=100`,
        `/api/v2/item/events/${address}/2?page=50`,
        `/api/v2/item/events/${address}/1?chainId=1`,
      );
    }
    await expectSame(urls);
  });

  it("for the error bodies of bad input", async () => {
    const [first] = (await fetch(`${sim.url}/api/v2/collection?perPage=1`).then((r) => r.json())).collections as {
      address: string;
    }[];
    await expectSame([
      "/api/v2/collection?perPage=0",
      "/api/v2/collection?perPage=101&page=0",
      "/api/v2/collection?sortBy=price&sortDir=up",
      "/api/v2/collection?unknown=1",
      "/api/v2/collection?chainId=abc",
      "/api/v2/collection?page=1&page=2",
      "/api/v2/collection?isVerified=maybe",
      "/api/v2/collection/0x123",
      "/api/v2/collection/not-an-address?chainId=0",
      `/api/v2/collection/${first!.address}?extra=1`,
      `/api/v2/item/events/${first!.address}/abc`,
      `/api/v2/item/events/${first!.address}/-1`,
      `/api/v2/item/events/${first!.address}/1?perPage=1000`,
      `/api/v2/item/events/0x${"0".repeat(40)}/1`,
      "/api/v2/no-such-route",
      "/metadata/56/no-such-slug/1",
      "/metadata/5/any/1",
      "/metadata/56/any/x",
    ]);
  });

  it("for mint requests the simulator refuses before any chain call", async () => {
    const [first] = (await fetch(`${sim.url}/api/v2/collection?perPage=1&chainId=56`).then((r) => r.json()))
      .collections as { address: string }[];
    const post =
      (body: string, type = "application/json") =>
      () => ({ method: "POST", headers: { "content-type": type }, body });
    const valid = {
      collectionAddress: first!.address,
      recipient: `0x${"1".repeat(40)}`,
      chainId: 56,
      item: { name: "Sword", initialSupply: 1 },
    };
    await expectSame(["/api/v2/item/new"], post(JSON.stringify(valid)));
    await expectSame(["/api/v2/item/new?apiKey=demo-studio-key"], post(JSON.stringify({ ...valid, chainId: 999 })));
    await expectSame(["/api/v2/item/new?apiKey=demo-studio-key"], post(JSON.stringify({ ...valid, chainId: 137 })));
    await expectSame(
      ["/api/v2/item/new?apiKey=demo-studio-key"],
      post(JSON.stringify({ ...valid, collectionAddress: `0x${"2".repeat(40)}` })),
    );
    await expectSame(
      ["/api/v2/item/new?apiKey=demo-studio-key"],
      post(JSON.stringify({ ...valid, item: { name: "", initialSupply: 0, extra: true } })),
    );
    await expectSame(
      ["/api/v2/item/new?apiKey=demo-studio-key"],
      post(JSON.stringify({ ...valid, item: { name: "A", initialSupply: 5, isStackable: false, maximumSupply: 2 } })),
    );
    await expectSame(["/api/v2/item/new?apiKey=demo-studio-key"], post("name=Sword", "text/plain"));
    await expectSame(
      ["/api/v2/item/new?apiKey=demo-studio-key"],
      post(
        new URLSearchParams({ ...valid, chainId: "56", item: "{not json" }).toString(),
        "application/x-www-form-urlencoded",
      ),
    );
    await expectSame(["/api/v2/item/new?apiKey=demo-studio-key"], post("{}"));
    for (const bad of ["not json", "null", "5", '"text"', "  ", "{bad", "[1,", ""])
      await expectSame(["/api/v2/item/new?apiKey=demo-studio-key"], post(bad));
    await expectSame(["/api/v2/collection", `/api/v2/item/events/${first!.address}/1`], post("{}"));
  });

  it("mocks a valid mint: new token ids after the last one, whose history starts with the mint", async () => {
    const handlers = createHandlers({ baseUrl: "http://other.example" });
    mock.use(...handlers);
    const [first] = (await fetch(`${sim.url}/api/v2/collection?perPage=1&chainId=56`).then((r) => r.json()))
      .collections as { address: string }[];
    const body = {
      collectionAddress: first!.address,
      recipient: `0x${"1".repeat(40)}`,
      chainId: 56,
      item: { name: "Sword", initialSupply: 3, isStackable: false },
    };
    const minted = await fetch("http://other.example/api/v2/item/new?apiKey=demo-studio-key", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    expect(minted.status).toBe(200);
    const { tokenIds, item } = (await minted.json()) as { tokenIds: number[]; item: { maximumSupply: number } };
    expect(tokenIds).toHaveLength(3);
    expect(item.maximumSupply).toBe(3);
    const events = await fetch(`http://other.example/api/v2/item/events/${first!.address}/${tokenIds[0]}`).then((r) =>
      r.json(),
    );
    expect(events.events).toMatchObject([
      { event: "TransferBatch", from: `0x${"0".repeat(40)}`, to: body.recipient, tokenId: tokenIds[0] },
    ]);
    // The default handlers' world is untouched.
    const before = await fetch(`${MOCK}/api/v2/item/events/${first!.address}/${tokenIds[0]}`);
    expect(before.status).toBe(404);
    mock.resetHandlers();
  });
});
