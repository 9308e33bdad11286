import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Simulator } from "../../src/simulator/simulator.ts";
import { call, expectErrorBody, mintItem, startDemo } from "../harness.ts";

let sim: Simulator;
beforeAll(async () => {
  sim = await startDemo();
});
afterAll(() => sim?.close());

const FIELDS = [
  "address",
  "name",
  "description",
  "genre",
  "image",
  "imageHash",
  "ownerAddress",
  "slug",
  "uri",
  "website",
  "mintDate",
  "chainId",
  "holders",
  "volume_1d",
  "volume_1w",
  "volume_30d",
  "volume_all",
];

describe("GET /api/v2/collection", () => {
  it("defaults to perPage 24, page 1, mintDate desc, and counts every match", async () => {
    const plain = await call(sim, "/api/v2/collection");
    const explicit = await call(sim, "/api/v2/collection?perPage=24&page=1&sortBy=mintDate&sortDir=desc");
    expect(plain.status).toBe(200);
    expect(plain.body).toEqual(explicit.body);
    expect(plain.body.count).toBe(5);
    expect(plain.body.collections).toHaveLength(5);
    const dates = plain.body.collections.map((c: any) => c.mintDate);
    expect(dates).toEqual([...dates].sort().reverse());
    expect(Object.keys(plain.body.collections[0])).toEqual(FIELDS);
  });

  it("pages are disjoint and together are the whole list, for every sort", async () => {
    for (const sortBy of ["mintDate", "name", "holders", "volume_all", "chainId", "genre"]) {
      for (const sortDir of ["asc", "desc"]) {
        const whole = (await call(sim, `/api/v2/collection?perPage=100&sortBy=${sortBy}&sortDir=${sortDir}`)).body;
        const pages = [];
        for (let page = 1; page <= 3; page++) {
          const { body } = await call(
            sim,
            `/api/v2/collection?perPage=2&page=${page}&sortBy=${sortBy}&sortDir=${sortDir}`,
          );
          expect(body.count).toBe(whole.count);
          pages.push(...body.collections);
        }
        expect(pages).toEqual(whole.collections);
      }
    }
  });

  it("sorts by any field in both directions, ties broken by address", async () => {
    const asc = (await call(sim, "/api/v2/collection?sortBy=genre&sortDir=asc")).body.collections;
    for (let i = 1; i < asc.length; i++) {
      const [a, b] = [asc[i - 1], asc[i]];
      expect(a.genre <= b.genre).toBe(true);
      if (a.genre === b.genre) expect(a.address < b.address).toBe(true);
    }
    const byVolume = (await call(sim, "/api/v2/collection?sortBy=volume_all&sortDir=desc")).body.collections;
    expect(byVolume[0].volume_all).toBeGreaterThan(0);
    expect(byVolume.map((c: any) => c.volume_all)).toEqual(
      [...byVolume.map((c: any) => c.volume_all)].sort((x, y) => y - x),
    );
  });

  it("filters on collection fields, typed by the schema", async () => {
    const bnb = (await call(sim, "/api/v2/collection?chainId=56")).body;
    expect(bnb.count).toBe(3);
    expect(bnb.collections.every((c: any) => c.chainId === 56)).toBe(true);
    const art = (await call(sim, "/api/v2/collection?genre=Art&chainId=137")).body;
    expect(art.collections.map((c: any) => c.name)).toEqual(["Harbor Tiles"]);
    const named = (await call(sim, `/api/v2/collection?name=${encodeURIComponent("Dragon Riders")}`)).body;
    expect(named.count).toBe(1);
    const upper = named.collections[0].address.toUpperCase().replace("0X", "0x");
    expect((await call(sim, `/api/v2/collection?address=${upper}`)).body.count).toBe(1);
    expect((await call(sim, "/api/v2/collection?isVerified=true")).body.count).toBe(5);
    expect((await call(sim, "/api/v2/collection?isVerified=false")).body.count).toBe(0);
    expect((await call(sim, "/api/v2/collection?holders=999")).body).toEqual({ collections: [], count: 0 });
  });

  it.each([
    ["an unknown sortBy", "sortBy=color", "sortBy"],
    ["an unknown filter field", "color=red", "color"],
    ["perPage 0", "perPage=0", "perPage"],
    ["perPage 1000", "perPage=1000", "perPage"],
    ["page -1", "page=-1", "page"],
    ["a badly typed filter", "chainId=bnb", "chainId"],
    ["a bad sortDir", "sortDir=up", "sortDir"],
  ])("answers 400 to %s", async (_what, query, field) => {
    const { status, body } = await call(sim, `/api/v2/collection?${query}`);
    expect(status).toBe(400);
    expectErrorBody(body, "VALIDATION_FAILED");
    expect(body.errors.join(" ")).toContain(field);
  });
});

describe("GET /api/v2/collection/:address", () => {
  it("answers the collection with imageUrl, derived from the chain", async () => {
    const [listed] = (await call(sim, "/api/v2/collection?name=Dragon%20Riders")).body.collections;
    const { status, body } = await call(sim, `/api/v2/collection/${listed.address}`);
    expect(status).toBe(200);
    expect(body.collection).toEqual({ ...listed, imageUrl: listed.image });
    // alice (6 held + 2 still listed) and bob (2 bought + the batch)
    expect(body.collection.holders).toBe(2);
    // 2 units sold at 0.4 BNB, BNB at 243.06 USD
    expect(body.collection.volume_all).toBe(194.45);
    expect(body.collection.volume_1d).toBe(194.45);
    expect(new Date(body.collection.mintDate).toISOString()).toBe(body.collection.mintDate);
  });

  it("answers 404 for an unknown collection and 400 for a malformed address", async () => {
    const unknown = await call(sim, `/api/v2/collection/0x${"ab".repeat(20)}`);
    expect(unknown.status).toBe(404);
    expectErrorBody(unknown.body, "NOT_FOUND");
    const malformed = await call(sim, "/api/v2/collection/0x1234");
    expect(malformed.status).toBe(400);
    expectErrorBody(malformed.body, "VALIDATION_FAILED");
  });
});

describe("GET /api/v2/item/events/:address/:tokenId", () => {
  it("answers the history newest first, with the design's ids and shapes", async () => {
    const [dragons] = (await call(sim, "/api/v2/collection?name=Dragon%20Riders")).body.collections;
    const { status, body } = await call(sim, `/api/v2/item/events/${dragons.address}/1`);
    expect(status).toBe(200);
    const kinds = body.events.map((e: any) => e.event);
    expect(kinds).toEqual([
      "Swapped",
      "TransferSingle",
      "ItemPriceUpdated",
      "ItemListed",
      "TransferSingle",
      "TransferSingle",
    ]);
    const [sale, , , listed, escrow, mint] = body.events;
    expect(mint.from).toBe("0x0000000000000000000000000000000000000000");
    expect(mint.amount).toBe("10");
    // ItemCreated is log 0 of the mint, the transfer log 1
    expect(mint.id).toBe(`TransferSingle-${mint.blockNumber}-1`);
    expect(escrow.to).toBe(sim.chains.get(56)!.contracts.marketplace);
    expect(escrow.transactionHash).toBe(listed.transactionHash);
    expect(listed).toMatchObject({
      to: "",
      amount: "4",
      price: 0.5,
      currencyPrice: 243.06,
      worth: 0,
      itemRef: `56-${dragons.address}-1`,
    });
    expect(listed.id).toMatch(new RegExp(`^ItemListed-1-${listed.transactionHash}-[0-9]+$`));
    expect(sale).toMatchObject({ event: "Swapped", amount: "2", price: 0.4, worth: 194.45, from: listed.from });
    for (let i = 1; i < body.events.length; i++) {
      expect(body.events[i - 1].blockNumber).toBeGreaterThanOrEqual(body.events[i].blockNumber);
    }
    expect(Object.keys(mint)).toEqual([
      "id",
      "amount",
      "blockNumber",
      "chainId",
      "event",
      "from",
      "itemCollection",
      "itemRef",
      "timestamp",
      "to",
      "tokenId",
      "transactionHash",
    ]);
  });

  it("pages the history: page 2 continues where page 1 stopped", async () => {
    const [dragons] = (await call(sim, "/api/v2/collection?name=Dragon%20Riders")).body.collections;
    const all = (await call(sim, `/api/v2/item/events/${dragons.address}/1`)).body.events;
    const first = (await call(sim, `/api/v2/item/events/${dragons.address}/1?perPage=4`)).body.events;
    const second = (await call(sim, `/api/v2/item/events/${dragons.address}/1?perPage=4&page=2`)).body.events;
    const third = (await call(sim, `/api/v2/item/events/${dragons.address}/1?perPage=4&page=3`)).body.events;
    expect([...first, ...second]).toEqual(all);
    expect(third).toEqual([]);
  });

  it("shows a TransferBatch as one event per token and the stablecoin sale in USD", async () => {
    const [dragons] = (await call(sim, "/api/v2/collection?name=Dragon%20Riders")).body.collections;
    const batchA = (await call(sim, `/api/v2/item/events/${dragons.address}/2`)).body.events;
    const batchB = (await call(sim, `/api/v2/item/events/${dragons.address}/4`)).body.events;
    expect(batchA).toHaveLength(1);
    expect(batchA[0].event).toBe("TransferBatch");
    expect(batchA[0].id).toBe(batchB[0].id);
    expect(batchA[0].tokenId).toBe(2);
    const [potions] = (await call(sim, "/api/v2/collection?name=Pixel%20Potions")).body.collections;
    const events = (await call(sim, `/api/v2/item/events/${potions.address}/1`)).body.events;
    const sale = events.find((e: any) => e.event === "Swapped");
    expect(sale).toMatchObject({
      currency: sim.chains.get(56)!.contracts.stablecoin,
      currencyPrice: 1,
      price: 12.5,
      amount: "3",
      worth: 37.5,
    });
    expect(events[0].event).toBe("ItemDelisted");
    expect(events[0].amount).toBe("7");
  });

  it.each([
    ["a malformed address", "/api/v2/item/events/0xnope/1", 400, "VALIDATION_FAILED"],
    [
      "a negative token id",
      "/api/v2/item/events/0x0000000000000000000000000000000000000001/-1",
      400,
      "VALIDATION_FAILED",
    ],
    [
      "a non-numeric token id",
      "/api/v2/item/events/0x0000000000000000000000000000000000000001/abc",
      400,
      "VALIDATION_FAILED",
    ],
    ["an unknown collection", "/api/v2/item/events/0x0000000000000000000000000000000000000001/1", 404, "NOT_FOUND"],
    [
      "perPage 1000",
      "/api/v2/item/events/0x0000000000000000000000000000000000000001/1?perPage=1000",
      400,
      "VALIDATION_FAILED",
    ],
    ["an unknown route", "/api/v2/nothing", 404, "NOT_FOUND"],
  ])("answers %s with its status and the JSON error body", async (_what, path, status, code) => {
    const answer = await call(sim, path);
    expect(answer.status).toBe(status);
    expectErrorBody(answer.body, code);
  });

  it("answers 404 for an unknown token of a known collection", async () => {
    const [dragons] = (await call(sim, "/api/v2/collection?name=Dragon%20Riders")).body.collections;
    const { status, body } = await call(sim, `/api/v2/item/events/${dragons.address}/999`);
    expect(status).toBe(404);
    expectErrorBody(body, "NOT_FOUND");
  });
});

describe("serving", () => {
  it("resolves <uri>/<tokenId> to the item's metadata on the simulator itself", async () => {
    const [dragons] = (await call(sim, "/api/v2/collection?name=Dragon%20Riders")).body.collections;
    const mint = await mintItem(sim, {
      collection: dragons.address,
      recipient: dragons.ownerAddress,
      chainId: 56,
      item: {
        name: "Saddle",
        initialSupply: 1,
        imageUrl: "https://img.example/saddle.png",
        properties: [{ name: "speed", value: "9", static: true }],
      },
    });
    const [tokenId] = mint.body.tokenIds;
    const metadata = await fetch(`${dragons.uri}/${tokenId}`);
    expect(metadata.status).toBe(200);
    expect(await metadata.json()).toMatchObject({
      name: "Saddle",
      image: "https://img.example/saddle.png",
      attributes: [{ trait_type: "speed", value: "9", static: true }],
    });
  });

  it("allows browser apps on other origins (CORS)", async () => {
    const response = await fetch(`${sim.url}/api/v2/collection`, { headers: { origin: "http://localhost:5173" } });
    expect(response.headers.get("access-control-allow-origin")).toBe("*");
    const preflight = await fetch(`${sim.url}/api/v2/item/new`, {
      method: "OPTIONS",
      headers: {
        origin: "http://localhost:5173",
        "access-control-request-method": "POST",
        "access-control-request-headers": "content-type",
      },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get("access-control-allow-methods")).toContain("POST");
  });
});
