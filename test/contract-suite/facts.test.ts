import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Facts } from "../../src/contract-suite/facts.ts";
import { Api } from "../../src/contract-suite/http.ts";
import { CheckStopped } from "../../src/contract-suite/stopped.ts";
import type { Target } from "../../src/contract-suite/target.ts";
import { BREAKAGES } from "./breakages.ts";
import { startBrokenTarget, type Breakage, type BrokenTarget } from "./broken-target.ts";
import { startSnapshotTarget, type SnapshotTarget } from "./snapshot-target.ts";

let snapshot: SnapshotTarget;
const proxies: BrokenTarget[] = [];

beforeAll(async () => {
  snapshot = await startSnapshotTarget();
});

afterAll(async () => {
  await Promise.all(proxies.map((proxy) => proxy.close()));
  await snapshot?.close();
});

const factsOf = (target: Partial<Target>, baseUrl = snapshot.url) =>
  new Facts({ baseUrl, allowWrites: false, ...target }, new Api(baseUrl));

async function through(breakage: Breakage): Promise<string> {
  const proxy = await startBrokenTarget(snapshot.url, breakage);
  proxies.push(proxy);
  return proxy.url;
}

describe("the facts the checks share", () => {
  it("without a known item: the first of the first collections whose token 1 has a history, and its collection", async () => {
    const facts = factsOf({});
    const sample = await facts.sample();
    const item = await facts.item();
    const first = sample.collections.slice(0, 5);
    expect(item.tokenId).toBe(1);
    expect(first.map((collection) => collection.address)).toContain(item.collection);
    expect((await facts.collection()).collection.address).toBe(item.collection);
    expect(await facts.chainId()).toBe(first.find((collection) => collection.address === item.collection)!.chainId);
    expect(sample.complete).toBe(sample.count <= 100);
    expect(await facts.item()).toBe(item);
  });

  it("a known item given in any case is read in lower case, its chain given or its collection's", async () => {
    const { collection, tokenId } = snapshot.target;
    const facts = factsOf({ collection: collection!.toUpperCase().replace("0X", "0x"), tokenId });
    expect(await facts.item()).toEqual({ collection, tokenId });
    expect(await facts.chainId()).toBe(56);
    expect(await factsOf({ collection, tokenId, chainId: 7 }).chainId()).toBe(7);
    const history = await facts.history();
    expect(history.complete).toBe(true);
    expect(history.events.length).toBe(22);
  });

  it("the collection to mint on: the one read, or another named", async () => {
    const { collection } = snapshot.target;
    const other = (await factsOf({}).sample()).collections.find((c) => c.address !== collection)!.address;
    expect((await factsOf({ collection, mintCollection: collection!.toUpperCase() }).mintCollection()).address).toBe(
      collection,
    );
    expect((await factsOf({ collection, mintCollection: other }).mintCollection()).address).toBe(other);
    await expect(
      factsOf({ collection, mintCollection: "0x0000000000000000000000000000000000000001" }).mintCollection(),
    ).rejects.toThrow("the collection to mint on answered 404, not 200");
  });

  it("fail as prerequisites, naming the request, when the target answers no list, history or collection to read", async () => {
    const noList = await through({
      rewriteBody: (url, _s, body) => (url.pathname === "/api/v2/collection" ? { collections: {} } : body),
    });
    await expect(factsOf({}, noList).sample()).rejects.toThrow(
      expect.objectContaining({
        message: "cannot check: the collection list answered no `collections` array and numeric `count`",
        request: `GET ${noList}/api/v2/collection?perPage=100&page=1`,
      }),
    );
    await expect(factsOf({}, noList).sample()).rejects.toBeInstanceOf(CheckStopped);
    const noCount = await through({
      rewriteBody: (url, _s, body) => (url.pathname === "/api/v2/collection" ? { collections: [] } : body),
    });
    await expect(factsOf({}, noCount).list()).rejects.toThrow("answered no `collections` array and numeric `count`");
    const empty = await through({
      rewriteBody: (url, _s, body) => (url.pathname === "/api/v2/collection" ? { collections: [], count: 0 } : body),
    });
    await expect(factsOf({}, empty).item()).rejects.toThrow(
      "none of the first 5 collections has a token 1 with a history; pass --collection and --token-id",
    );
    await expect(factsOf({}, empty).collection()).rejects.toThrow("the target lists no collection; pass --collection");
    const noEvents = await through({
      rewriteBody: (url, _s, body) => (url.pathname.startsWith("/api/v2/item/events/") ? {} : body),
    });
    await expect(factsOf(snapshot.target, noEvents).history()).rejects.toThrow(
      "the item history answered no `events` array",
    );
    const notJson = await through({
      rewriteText: (url, _s, text) => (url.pathname.startsWith("/api/v2/collection/") ? "ok" : text),
    });
    await expect(factsOf(snapshot.target, notJson).collection()).rejects.toThrow(
      "the collection answered a body that is not a JSON object",
    );
    const noCollection = await through({
      rewriteBody: (url, _s, body) => (url.pathname.startsWith("/api/v2/collection/") ? { collection: null } : body),
    });
    await expect(factsOf(snapshot.target, noCollection).collection()).rejects.toThrow(
      "the collection answered no `collection` object",
    );
    await expect(
      factsOf(
        { ...snapshot.target, mintCollection: (await factsOf({}).sample()).collections[1]!.address },
        noCollection,
      ).mintCollection(),
    ).rejects.toThrow("the collection to mint on answered no `collection` object");
    const oddChain = await through({
      rewriteBody: (url, _s, body) =>
        url.pathname.startsWith("/api/v2/collection/")
          ? { collection: { ...(body as { collection: object }).collection, chainId: "56" } }
          : body,
    });
    await expect(factsOf({ collection: snapshot.target.collection, tokenId: 3 }, oddChain).chainId()).rejects.toThrow(
      `the collection's chainId "56" is not an integer; pass --chain-id`,
    );
    const broken = await through(BREAKAGES.unknownItemEmptyHistory);
    expect((await factsOf({}, broken).item()).tokenId).toBe(1);
  });
});

describe("what the facts conclude", () => {
  const LIST = "/api/v2/collection";
  const isHistory = (url: URL) => url.pathname.startsWith("/api/v2/item/events/");
  const rowsOf = <T>(rows: T[], n: number): T[] => Array.from({ length: n }, (_, i) => rows[i % rows.length]!);
  const listed = (rows: number, count: number) =>
    through({
      rewriteBody: (url, _s, body) => {
        if (url.pathname !== LIST) return body;
        const { collections } = body as { collections: object[] };
        return { collections: rowsOf(collections, rows), count };
      },
    });

  it("the sample is complete when its one page holds all the count says, 100 at most", async () => {
    expect((await factsOf({}).sample()).complete).toBe(true);
    expect((await factsOf({}, await listed(100, 100)).sample()).complete).toBe(true);
    expect((await factsOf({}, await listed(100, 101)).sample()).complete).toBe(false);
    expect((await factsOf({}, await listed(24, 35)).sample()).complete).toBe(false);
    expect((await factsOf({}, await listed(150, 150)).sample()).complete).toBe(false);
  });

  it("the history is complete when it is shorter than the largest page", async () => {
    const events = (n: number) =>
      through({
        rewriteBody: (url, _s, body) =>
          isHistory(url) ? { events: rowsOf((body as { events: object[] }).events, n) } : body,
      });
    const item = { collection: snapshot.target.collection, tokenId: snapshot.target.tokenId };
    expect((await factsOf(item, await events(99)).history()).complete).toBe(true);
    expect((await factsOf(item, await events(100)).history()).complete).toBe(false);
  });

  it("the item is looked for in the first 5 collections only, one event each, passing over any without a history", async () => {
    const sample = await factsOf({}).sample();
    const [refused, notArray, empty, notJson, alsoEmpty] = sample.collections.map((c) => c.address);
    const addressOf = (url: URL) => url.pathname.split("/")[5];
    const event = { id: "TransferSingle-1-0" };
    const broken = await startBrokenTarget(snapshot.url, {
      rewriteBody: (url, _s, body) => {
        if (!isHistory(url)) return body;
        const address = addressOf(url);
        if (address === notArray) return { events: "TransferSingle-1-0" };
        if (address === empty || address === alsoEmpty) return { events: [] };
        return { events: [event] };
      },
      rewriteText: (url, _s, text) => (isHistory(url) && addressOf(url) === notJson ? "no history" : text),
      rewriteStatus: (url, status) => (isHistory(url) ? (addressOf(url) === refused ? 404 : 200) : status),
    });
    proxies.push(broken);
    await expect(factsOf({}, broken.url).item()).rejects.toThrow(
      "none of the first 5 collections has a token 1 with a history; pass --collection and --token-id",
    );
    const looked = broken.requests.filter((line) => line.startsWith("GET /api/v2/item/events/"));
    expect(looked).toEqual(
      [refused, notArray, empty, notJson, alsoEmpty].map((address) => `GET /api/v2/item/events/${address}/1?perPage=1`),
    );
  });

  it("the collection to mint on, when it is the one read, is read as that one", async () => {
    const unknown = "0x0000000000000000000000000000000000000001";
    await expect(
      factsOf({ collection: unknown.toUpperCase().replace("0X", "0x"), mintCollection: unknown }).mintCollection(),
    ).rejects.toThrow("the collection answered 404, not 200");
    const other = (await factsOf({}).sample()).collections[1]!.address;
    expect((await factsOf({ mintCollection: other.toUpperCase().replace("0X", "0x") }).mintCollection()).address).toBe(
      other,
    );
  });

  it("a collection answered as something other than an object is no collection", async () => {
    const scalar = await through({
      rewriteBody: (url, _s, body) => (url.pathname.startsWith("/api/v2/collection/") ? { collection: "x" } : body),
    });
    await expect(factsOf(snapshot.target, scalar).collection()).rejects.toThrow(
      "the collection answered no `collection` object",
    );
    const other = (await factsOf({}).sample()).collections[1]!.address;
    await expect(factsOf({ ...snapshot.target, mintCollection: other }, scalar).mintCollection()).rejects.toThrow(
      "the collection to mint on answered no `collection` object",
    );
    const listScalar = await through({
      rewriteBody: (url, _s, body) => (url.pathname === LIST ? "x" : body),
    });
    await expect(factsOf({}, listScalar).sample()).rejects.toThrow(
      "the collection list answered a body that is not a JSON object",
    );
    const listNull = await through({ rewriteText: (url, _s, text) => (url.pathname === LIST ? "null" : text) });
    await expect(factsOf({}, listNull).sample()).rejects.toThrow(
      "the collection list answered a body that is not a JSON object",
    );
  });
});
