import { zeroAddress, type AbiEvent } from "viem";
import { describe, expect, it, afterAll, beforeAll } from "vitest";
import { loadAbis } from "../../src/core/abi.ts";
import { ApiError, ERRORS } from "../../src/core/errors.ts";
import { advanceHead, applyLogs } from "../../src/indexer/apply.ts";
import { indexedEventsAbi } from "../../src/indexer/log-source.ts";
import { emptyModels } from "../../src/indexer/models.ts";
import { foldWorld, worldFileText, type WorldFile } from "../../src/msw/world-file.ts";
import { mockMint, MockWorld } from "../../src/msw/world.ts";
import { Pipeline, type PipelineDeps, type PipelineRequest, API_SPACE } from "../../src/pipeline/pipeline.ts";
import type { CollectionsQuery } from "../../src/schemas/collection.ts";
import { listCollections, orderedViews } from "../../src/views/collection-list.ts";
import { ALICE, BOB, chainFacts, COLLECTION, createCollection, LogBook } from "../indexer/logs.ts";
import { request as httpRequest, createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import Router from "@koa/router";
import fc from "fast-check";
import Koa from "koa";
import { RequestLog } from "../../src/control/request-log.ts";
import { methodRefusals } from "../../src/http/app.ts";
import { errorExit } from "../../src/http/error-exit.ts";
import { SERVED_OPERATIONS } from "../../src/schemas/operations.ts";

// The pipeline with no transport at all: requests as plain objects, answers as bytes, refusals thrown as the
// catalog's errors; over a world folded from logs (as the MSW handlers fold theirs).

/** One collection with one item, two of it held by Bob: its models folded directly, and its world file's text. */
function folded() {
  const book = createCollection(new LogBook());
  book.add("TransferSingle", COLLECTION, { operator: ALICE, from: zeroAddress, to: BOB, id: 1n, value: 2n });
  book.add("ItemCreated", COLLECTION, {
    tokenId: 1n,
    creator: ALICE,
    maxSupply: 9n,
    initialSupply: 2n,
    royaltyPerMille: 0n,
  });
  const models = emptyModels(chainFacts());
  applyLogs(models, book.logs, book.blockTimes());
  advanceHead(models, { number: 10n, timestamp: BigInt(book.blockTimes().get(3n)! + 60) });
  const text = worldFileText(indexedEventsAbi(loadAbis()) as AbiEvent[], [
    { models, logs: book.logs, times: book.blockTimes() },
  ]);
  return { models, file: JSON.parse(text) as WorldFile };
}

const world = () => new MockWorld(folded().file);

function pipelineOver(mock: MockWorld, send: PipelineDeps["send"] = mockMint(mock)) {
  return new Pipeline({
    chains: mock,
    accounts: {
      byApiKey: (apiKey) => (apiKey === "k" ? { apiKey, name: "k", walletKey: "0x", wallet: ALICE } : undefined),
    },
    send,
    draw: (seed, format, size) => ({ bytes: new TextEncoder().encode(`${format}:${seed}:${size}`), etag: '"e"' }),
  });
}

const headers = new Map<string, string>();

function request(
  method: string,
  url: string,
  body?: unknown,
  contentType = "application/json",
  sentHeaders: Record<string, string> = {},
): PipelineRequest {
  const { pathname, search } = new URL(url, "http://x");
  return {
    method,
    path: pathname,
    url,
    query: Object.fromEntries(new URLSearchParams(search)),
    contentType,
    header: (name) => Object.entries(sentHeaders).find(([sent]) => sent.toLowerCase() === name.toLowerCase())?.[1],
    body,
    is: (types) => types.find((type) => type === contentType) ?? false,
    client: "test",
    setHeader: (name, value) => void headers.set(name, value),
  };
}

async function answer(pipeline: Pipeline, sent: PipelineRequest) {
  try {
    const routed = pipeline.router.route(sent.method, sent.path);
    if (!routed || "allow" in routed) return routed;
    const { status, type, body } = await pipeline.answer(routed, sent);
    return {
      status,
      type,
      body,
      json: type.startsWith("application/json") ? JSON.parse(new TextDecoder().decode(body)) : undefined,
    };
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    return { status: error.status, json: error.body, headers: error.headers };
  }
}

describe("the pipeline", () => {
  it("answers a read as JSON bytes made by the views, the same bytes until the models move", async () => {
    const mock = world();
    const pipeline = pipelineOver(mock);
    const url = "/api/v2/collection?sortBy=holders";
    const first = await answer(pipeline, request("GET", url));
    const [models] = mock.chains;
    const query = { page: 1, perPage: 24, sortBy: "holders", sortDir: "desc" } as CollectionsQuery;
    expect(first).toMatchObject({ status: 200, type: "application/json; charset=utf-8" });
    expect(first && "json" in first && first.json).toEqual(
      listCollections(orderedViews([models!], "holders", "desc"), query),
    );
    expect(((await answer(pipeline, request("GET", url))) as { body: Uint8Array }).body).toBe(
      (first as { body: Uint8Array }).body,
    );
    const minted = await answer(
      pipeline,
      request("POST", "/api/v2/item/new?apiKey=k", {
        collectionAddress: COLLECTION,
        recipient: `0x${"1".repeat(40)}`,
        chainId: 56,
        item: { name: "Sword", initialSupply: 1 },
      }),
    );
    expect(minted).toMatchObject({ status: 200, json: { tokenIds: [2], chainId: 56 } });
    const after = await answer(pipeline, request("GET", url));
    expect((after as { body: Uint8Array }).body).not.toBe((first as { body: Uint8Array }).body);
    expect((after as { json: { collections: { holders: number }[] } }).json.collections[0]!.holders).toBe(2);
    expect(await answer(pipeline, request("GET", `/metadata/56/cards/2`))).toMatchObject({
      status: 200,
      json: { name: "Sword" },
    });
  });

  it("refuses what the route table, the credentials and the schemas refuse, before any handler", async () => {
    let sent = 0;
    const pipeline = pipelineOver(world(), async () => {
      sent++;
      throw new Error("not sent");
    });
    const refused = async (method: string, url: string, body?: unknown, type?: string) =>
      ((await answer(pipeline, request(method, url, body, type))) as { json: { error: string } }).json.error;
    expect(await refused("GET", "/api/v2/nothing")).toBe(ERRORS.NOT_FOUND.code);
    expect(await refused("DELETE", "/api/v2/collection")).toBe(ERRORS.METHOD_NOT_ALLOWED.code);
    expect(await refused("GET", "/api/v2/collection?perPage=0")).toBe(ERRORS.INVALID_REQUEST.code);
    expect(await refused("POST", "/api/v2/item/new", {})).toBe(ERRORS.API_KEY_REQUIRED.code);
    expect(await refused("POST", "/api/v2/item/new?apiKey=nobody", {})).toBe(ERRORS.UNKNOWN_API_KEY.code);
    expect(await refused("POST", "/api/v2/item/new?apiKey=k", {}, "text/plain")).toBe(
      ERRORS.UNSUPPORTED_MEDIA_TYPE.code,
    );
    expect(await refused("POST", "/api/v2/item/new?apiKey=k", {})).toBe(ERRORS.INVALID_REQUEST.code);
    expect(sent).toBe(0);
    expect(pipeline.router.route("OPTIONS", "/api/v2/collection")).toEqual({ allow: ["HEAD", "GET"] });
    expect(pipeline.router.route("GET", "/dashboard/app.js")).toBeUndefined();
  });

  it("takes the API key in the ALTURA_API_KEY header wherever it takes apiKey; both, differing, is 400 naming both", async () => {
    const minted: string[] = [];
    const pipeline = pipelineOver(world(), async (account) => {
      minted.push(account.apiKey);
      throw new Error("not sent");
    });
    const mint = {
      collectionAddress: COLLECTION,
      recipient: ALICE,
      chainId: 56,
      item: { name: "Sword", initialSupply: 1 },
    };
    const sent = (url: string, headers: Record<string, string>, body: unknown = mint) =>
      answer(pipeline, request(body === null ? "GET" : "POST", url, body ?? undefined, "application/json", headers));
    await expect(sent("/api/v2/item/new", { ALTURA_API_KEY: "k" })).rejects.toThrow("not sent");
    await expect(sent("/api/v2/item/new?apiKey=k", { altura_api_key: "k" })).rejects.toThrow("not sent");
    expect(minted).toEqual(["k", "k"]);
    expect(await sent("/api/v2/item/new", { ALTURA_API_KEY: "nobody" })).toMatchObject({
      json: { error: ERRORS.UNKNOWN_API_KEY.code },
    });
    const both = await sent("/api/v2/item/new?apiKey=k", { ALTURA_API_KEY: "other" });
    expect(both).toMatchObject({ status: 400, json: { error: "VALIDATION_FAILED" } });
    expect((both as { json: { message: string } }).json.message).toMatch(/apiKey.*ALTURA_API_KEY/);
    // A read takes (and ignores) it too, and refuses two keys even when its answer is kept for the URL.
    expect(await sent("/api/v2/collection", { ALTURA_API_KEY: "k" }, null)).toMatchObject({ status: 200 });
    expect(await sent("/api/v2/collection?apiKey=k", { ALTURA_API_KEY: "x" }, null)).toMatchObject({
      status: 400,
    });
    expect(minted).toHaveLength(2);
  });

  it("answers a method a path does not take 405 with the methods it takes in Allow", async () => {
    const pipeline = pipelineOver(world());
    expect(await answer(pipeline, request("DELETE", "/api/v2/collection"))).toMatchObject({
      status: 405,
      headers: { allow: "HEAD, GET" },
    });
    expect(await answer(pipeline, request("GET", "/api/v2/item/new"))).toMatchObject({
      status: 405,
      headers: { allow: "POST" },
    });
    expect(await answer(pipeline, request("PROPFIND", "/api/v2/nothing"))).toMatchObject({
      status: 405,
      headers: { allow: "" },
    });
  });

  it("answers an image as the bytes drawn, with its media type and the headers to keep it by", async () => {
    const drawn = await answer(pipelineOver(world()), request("GET", "/images/abc.svg?size=64"));
    expect(drawn).toMatchObject({ status: 200, type: "image/svg+xml" });
    expect(new TextDecoder().decode((drawn as { body: Uint8Array }).body)).toBe("svg:abc:64");
    expect(headers.get("ETag")).toBe('"e"');
  });

  it("folds a world file into the models it was written from", () => {
    const { models, file } = folded();
    const same = (of: typeof models) => ({ ...of, version: 0 });
    expect(foldWorld(file).map(same)).toEqual([same(models)]);
    expect(models.holders.get(COLLECTION)).toEqual(new Map([[BOB, 1]]));
  });
});

describe("router", () => {
  // The pipeline's router against @koa/router serving the same route table as the server served it before the
  // pipeline routed (each operation at its method and path, then its `allowedMethods()` refusals as the server's, behind
  // the JSON error exit): for any method and path, the same operation with the same parameters, or the same refusal with
  // the same `Allow`.

  const { router } = new Pipeline({} as PipelineDeps);
  let server: Server;
  let port: number;

  beforeAll(async () => {
    const app = new Koa();
    const koaRouter = new Router();
    for (const operation of SERVED_OPERATIONS)
      koaRouter[operation.method](operation.path, (ctx) => {
        ctx.body = { operationId: operation.operationId, params: { ...ctx.params } };
      });
    app.use(errorExit(new RequestLog(), () => undefined));
    app.use(koaRouter.routes());
    app.use(methodRefusals(koaRouter.allowedMethods()));
    server = createServer(app.callback()).listen(0, "127.0.0.1");
    await new Promise((resolve) => server.once("listening", resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => server?.close());

  interface Outcome {
    status: number;
    body: unknown;
    allow?: string;
  }

  function koa(method: string, path: string): Promise<Outcome> {
    return new Promise((resolve, reject) => {
      const sent = httpRequest({ host: "127.0.0.1", port, method, path }, (response) => {
        let text = "";
        response.on("data", (chunk: Buffer) => (text += chunk.toString()));
        response.on("end", () =>
          resolve({
            status: response.statusCode!,
            body: text === "" ? "" : JSON.parse(text),
            ...(response.headers.allow === undefined ? {} : { allow: response.headers.allow }),
          }),
        );
      });
      sent.on("error", reject);
      sent.end();
    });
  }

  function piped(method: string, path: string): Outcome | undefined {
    try {
      const routed = router.route(method, path);
      if (!routed) return undefined;
      if ("allow" in routed) return { status: 200, body: "", allow: routed.allow.join(", ") };
      return { status: 200, body: { operationId: routed.operation.operationId, params: routed.params } };
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      return { status: error.status, body: error.body, ...error.headers };
    }
  }

  const METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", "PROPFIND", "MKCOL"];

  /** A path near one the table serves: its parameters filled with text that may need encoding, in any case, etc. */
  const nearPath = fc
    .record({
      operation: fc.constantFrom(...SERVED_OPERATIONS),
      values: fc.array(
        fc.oneof(
          fc.constantFrom("0xAbC", "56", "my-slug", "%41b", "%zz", "%2F", "a.png", "", "caf%C3%A9", "a b"),
          fc.stringMatching(/^[A-Za-z0-9._~-]{1,12}$/),
        ),
        { minLength: 3, maxLength: 3 },
      ),
      upper: fc.boolean(),
      trailing: fc.constantFrom("", "/", "//", "/x"),
    })
    .map(({ operation, values, upper, trailing }) => {
      let i = 0;
      const path = operation.path.replace(/:[A-Za-z]+/g, () => values[i++]!.replaceAll(" ", "%20")) + trailing;
      return upper ? path.toUpperCase() : path;
    });

  const strayPath = fc.constantFrom(
    "/api/v2/",
    "/api/v2/no-such-route",
    "/api/v2/collection/a/b",
    "/api/v2/item/new/x",
    "/API/V2/COLLECTION",
    "/api/v2/item/events/0xab",
    "/metadata/56/slug",
    "/images/seed.gif",
    "/images/.png",
    "/elsewhere",
  );

  describe("the pipeline's router", () => {
    it(`routes within ${API_SPACE} and the table's paths as @koa/router does`, async () => {
      await fc.assert(
        fc.asyncProperty(fc.constantFrom(...METHODS), fc.oneof(nearPath, strayPath), async (method, path) => {
          const expected = await koa(method, path);
          const answered = piped(method, path);
          if (answered === undefined) {
            // Not the API's: the server's own router takes it on (a path of no route is 404 there).
            expect(path.startsWith(API_SPACE)).toBe(false);
            expect([404, 405]).toContain(expected.status);
            return;
          }
          // A HEAD answer has no body.
          expect(answered).toEqual(method === "HEAD" ? { ...expected, body: answered.body } : expected);
          if (answered.status === 405) expect(answered.allow).toBeDefined();
        }),
        { numRuns: 400 },
      );
    });

    it("answers every operation of the table at its own path and method (the check can fail)", () => {
      for (const operation of SERVED_OPERATIONS) {
        const path = operation.path.replace(/:[A-Za-z]+/g, "x");
        expect(piped(operation.method.toUpperCase(), path)?.body).toMatchObject({ operationId: operation.operationId });
      }
      expect(piped("GET", "/api/v2/collection/a/b")?.status).toBe(404);
    });
  });
});
