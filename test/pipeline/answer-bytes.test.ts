import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import fc from "fast-check";
import Koa from "koa";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RequestLog } from "../../src/control/request-log.ts";
import { errorExit } from "../../src/http/error-exit.ts";
import { ANSWER_BYTES_KEPT, ANSWERS_KEPT, AnswerBytes } from "../../src/pipeline/answer-bytes.ts";
import { apiAnswers } from "../../src/routes/api.ts";
import { demoWorld } from "../../src/scenario/worlds.ts";
import type { Simulator } from "../../src/simulator/simulator.ts";
import { call, mintItem, postJson, RPC_ON_FREE_PORTS, startTestSimulator } from "../harness.ts";
import { rpc } from "../rpc.ts";

// The reads' answers kept as bytes against answers made afresh for the same request, on the same chains and read
// models: the simulator serves every URL from its kept bytes when it can, and a server beside it makes each answer
// anew (a new AnswerBytes per request); across mints, reverts (a snapshot's, evm_revert over JSON-RPC) and a reset,
// every URL answered before is asked again and must answer the fresh bytes.

let sim: Simulator;
let fresh: Server;
let freshUrl: string;
let collections: { address: string; chainId: number; slug: string }[];

beforeAll(async () => {
  sim = await startTestSimulator(demoWorld(), {
    ...RPC_ON_FREE_PORTS,
  });
  const app = new Koa();
  app.use(errorExit(new RequestLog(), () => undefined));
  // A pipeline of its own for every request: its reads keep nothing from one request to the next.
  app.use((ctx, next) => apiAnswers({ chains: sim.chains, accounts: sim.accounts, mintTimeoutMs: 10_000 })(ctx, next));
  fresh = createServer(app.callback()).listen(0, "127.0.0.1");
  await new Promise((resolve) => fresh.once("listening", resolve));
  freshUrl = `http://127.0.0.1:${(fresh.address() as AddressInfo).port}`;
  collections = (await call(sim, "/api/v2/collection?perPage=100")).body.collections;
});
afterAll(async () => {
  fresh?.close();
  await sim?.close();
});

function query(fields: Record<string, string | number | undefined>): string {
  const given = Object.entries(fields).filter(([, value]) => value !== undefined);
  return given.length === 0 ? "" : "?" + given.map(([name, value]) => `${name}=${value}`).join("&");
}

/** The read URLs of the API: the list, one collection, an item's history, an item's metadata; some of them 404. */
function readUrls(): fc.Arbitrary<string> {
  const opt = <T>(...values: T[]) => fc.constantFrom<T | undefined>(undefined, ...values);
  const address = fc.constantFrom(...collections.map((c) => c.address), "0x00000000000000000000000000000000000000aa");
  const chainId = opt(56, 137, 1);
  const page = opt(1, 2, 3);
  const tokenId = fc.integer({ min: 1, max: 8 });
  return fc.oneof(
    fc
      .record({
        perPage: opt(1, 2, 24, 100),
        page,
        sortBy: opt("mintDate", "name", "holders", "volume_all", "volume_1d", "chainId"),
        sortDir: opt("asc", "desc"),
        chainId,
        genre: opt("Art", "Gaming"),
      })
      .map((fields) => `/api/v2/collection${query(fields)}`),
    fc.record({ address, chainId }).map(({ address, chainId }) => `/api/v2/collection/${address}${query({ chainId })}`),
    fc
      .record({ address, tokenId, page, perPage: opt(1, 5, 24, 100), chainId })
      .map(({ address, tokenId, ...rest }) => `/api/v2/item/events/${address}/${tokenId}${query(rest)}`),
    fc
      .record({ collection: fc.constantFrom(...collections), tokenId })
      .map(({ collection, tokenId }) => `/metadata/${collection.chainId}/${collection.slug}/${tokenId}`),
  );
}

const asked = new Set<string>();

async function raw(base: string, url: string) {
  const response = await fetch(base + url);
  return {
    status: response.status,
    contentType: response.headers.get("content-type"),
    contentLength: response.headers.get("content-length"),
    etag: response.headers.get("etag"),
    body: Buffer.from(await response.arrayBuffer()).toString("utf8"),
  };
}

/** The simulator's answer to `url`, asked twice (made, then kept), is the answer made afresh, byte for byte. */
async function expectFreshBytes(url: string): Promise<void> {
  asked.add(url);
  const made = await raw(sim.url, url);
  const kept = await raw(sim.url, url);
  const anew = await raw(freshUrl, url);
  expect(made, url).toEqual(anew);
  expect(kept, url).toEqual(anew);
}

/** Every URL answered so far, then new ones drawn. */
async function everyUrlAnswersFresh(): Promise<void> {
  for (const url of asked) await expectFreshBytes(url);
  await fc.assert(
    fc.asyncProperty(fc.array(readUrls(), { minLength: 1, maxLength: 6 }), async (urls) => {
      for (const url of urls) await expectFreshBytes(url);
    }),
    { numRuns: 20 },
  );
}

async function mint(chainId: number): Promise<void> {
  const collection = collections.find((c) => c.chainId === chainId)!;
  expect((await mintItem(sim, { collection: collection.address, chainId })).status).toBe(200);
}

describe("the reads' answers kept as bytes", () => {
  it("answer what an answer made afresh would, across mints, a snapshot's revert, evm_revert and a reset", async () => {
    await everyUrlAnswersFresh();
    await mint(56);
    await mint(137);
    await everyUrlAnswersFresh();

    const { id } = (await postJson(sim, "/_sim/snapshots", {})).body;
    await mint(56);
    await everyUrlAnswersFresh();
    expect((await postJson(sim, `/_sim/snapshots/${id}/revert`, {})).status).toBe(200);
    await everyUrlAnswersFresh();

    const rpcUrl = sim.rpcUrls.get(137)!;
    const outside = await rpc(rpcUrl, "evm_snapshot");
    await mint(137);
    await everyUrlAnswersFresh();
    expect(await rpc(rpcUrl, "evm_revert", [outside])).toBe(true);
    await everyUrlAnswersFresh();

    await postJson(sim, "/_sim/time/advance", { seconds: 86_400 });
    await everyUrlAnswersFresh();
    expect((await postJson(sim, "/_sim/reset", {})).status).toBe(200);
    await everyUrlAnswersFresh();
    // Every kind of read answered 200 and 404 among them: the check covered what it meant to.
    for (const kind of ["/api/v2/collection?", "/api/v2/collection/0x", "/api/v2/item/events/", "/metadata/"])
      expect([...asked].some((url) => url.startsWith(kind))).toBe(true);
  }, 240_000);
});

describe("a read whose bytes are kept", () => {
  it("still meets the fault rules and the request log, every time", async () => {
    const url = "/api/v2/collection?perPage=2";
    const kept = await raw(sim.url, url);
    expect((await raw(sim.url, url)).body).toBe(kept.body);
    const rule = await postJson(sim, "/_sim/faults", {
      match: { path: "/api/v2/collection" },
      effect: { status: 503 },
      times: 2,
    });
    expect(rule.status).toBe(200);
    const statuses = [];
    for (let i = 0; i < 3; i++) statuses.push((await raw(sim.url, url)).status);
    expect(statuses).toEqual([503, 503, 200]);
    const logged = (await call(sim, "/_sim/requests?limit=3&path=/api/v2/collection")).body.requests;
    expect(logged.map((entry: { status: number }) => entry.status)).toEqual([200, 503, 503]);
    const { response } = (await call(sim, `/_sim/requests/${logged[0].id}`)).body;
    expect(response).toMatchObject({ contentType: "application/json; charset=utf-8", text: kept.body });
  });
});

describe("AnswerBytes", () => {
  it("makes an answer once per version of the read models it comes from, and keeps at most its bound", async () => {
    const answers = new AnswerBytes();
    let made = 0;
    const make = (text: string) => () => (made++, Buffer.from(text));
    const models = async () => (await sim.chains.read()).map((read) => read.models);
    const serve = (key: string, from: Awaited<ReturnType<typeof models>>, make: () => Buffer) =>
      answers.bytes(key, answers.kept.get(key), { key }, from, make);
    expect(serve("/a", await models(), make("one")).toString()).toBe("one");
    expect(serve("/a", await models(), make("two")).toString()).toBe("one");
    expect(made).toBe(1);
    expect(answers.kept.get("/a")?.request).toEqual({ key: "/a" });
    await mint(56);
    expect(serve("/a", await models(), make("three")).toString()).toBe("three");
    expect(made).toBe(2);
    // A read of another chain only: its version moved nowhere, the kept answer stays.
    const chain137 = (await sim.chains.read(137)).map((read) => read.models);
    expect(serve("/b", chain137, make("b")).toString()).toBe("b");
    expect(serve("/a", await models(), make("four")).toString()).toBe("three");

    const now = await models();
    for (let i = 0; i < ANSWERS_KEPT + 10; i++) serve(`/n${i}`, now, make("x"));
    expect(answers.kept.size).toBe(ANSWERS_KEPT);
    const large = "y".repeat(64 * 1024);
    for (let i = 0; i < (2 * ANSWER_BYTES_KEPT) / large.length; i++) serve(`/l${i}`, now, make(large));
    expect(answers.kept.calculatedSize).toBeLessThanOrEqual(ANSWER_BYTES_KEPT);
    expect(answers.kept.size).toBeGreaterThan(0);
  }, 60_000);
});
