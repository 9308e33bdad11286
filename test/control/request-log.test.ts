import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BODY_BOUND, DASHBOARD_HEADER, maskSecrets } from "../../src/control/request-log.ts";
import type { Simulator } from "../../src/simulator/simulator.ts";
import {
  call,
  collectionsOn,
  DEMO_KEYS,
  expectErrorBody,
  mintBody,
  mintItem,
  postJson,
  startDemo,
} from "../harness.ts";
import fc from "fast-check";

// The request log over real HTTP: the query and the bodies as they were, secrets masked,
// filters, the bound on a body, and what it leaves out.

let sim: Simulator;
beforeAll(async () => {
  sim = await startDemo();
});
afterAll(() => sim?.close());

const lastOf = async (filters = "") => (await call(sim, `/_sim/requests?limit=1${filters}`)).body.requests[0];
const detail = async (id: number) => (await call(sim, `/_sim/requests/${id}`)).body;

describe("the request log", () => {
  it("keeps the query, with the API key masked", async () => {
    await call(sim, `/api/v2/collection?genre=Art&perPage=3&apiKey=${DEMO_KEYS.guest}`);
    const entry = await lastOf();
    expect(entry).toMatchObject({ method: "GET", path: "/api/v2/collection", status: 200, apiKey: "demo…" });
    expect(entry.query).toBe("genre=Art&perPage=3&apiKey=demo…");
    expect(entry.id).toBeGreaterThan(0);
    expect(Date.parse(entry.at)).not.toBeNaN();
  });

  it("keeps the request and response bodies, API keys and tokens masked wherever they stand", async () => {
    const [collection] = await collectionsOn(sim, 56);
    const minted = await mintItem(sim, { collection: collection!, chainId: 56 });
    expect(minted.status).toBe(200);
    const mint = detail((await lastOf("&method=POST")).id);
    const { request, response, bodiesKept, query } = await mint;
    expect(bodiesKept).toBe(true);
    expect(query).toBe("apiKey=demo…");
    expect(request).toMatchObject({ contentType: "application/json", truncated: false });
    expect(JSON.parse(request.text)).toEqual(mintBody(sim, collection!, 56));
    expect(JSON.parse(response.text)).toEqual(minted.body);
    expect(response.contentType).toBe("application/json; charset=utf-8");

    const created = await postJson(sim, "/_sim/api-keys", { name: "log-test" });
    const key = created.body.apiKey as string;
    await postJson(sim, "/_sim/collections", { chainId: 56, name: "Logged", owner: key, minters: [DEMO_KEYS.arcade] });
    const keyCall = await detail((await lastOf("&path=/_sim/api-keys")).id);
    expect(JSON.parse(keyCall.response.text).apiKey).toBe(`${key.slice(0, 4)}…`);
    const collectionCall = await detail((await lastOf("&path=/_sim/collections")).id);
    expect(JSON.parse(collectionCall.request.text)).toMatchObject({ owner: `${key.slice(0, 4)}…`, minters: ["demo…"] });
    const everything =
      JSON.stringify((await call(sim, "/_sim/requests?limit=1000")).body) +
      JSON.stringify(keyCall) +
      JSON.stringify(collectionCall);
    for (const secret of [key, DEMO_KEYS.arcade, DEMO_KEYS.studio, DEMO_KEYS.guest])
      expect(everything).not.toContain(secret);
  });

  it("cuts a body at its bound and says how long it was", async () => {
    await call(sim, "/openapi.json");
    const { response } = await detail((await lastOf("&path=/openapi.json")).id);
    expect(response.length).toBeGreaterThan(BODY_BOUND);
    expect(response.text).toHaveLength(BODY_BOUND);
    expect(response.truncated).toBe(true);
    await fetch(`${sim.url}/images/log-test.png`).then((r) => r.arrayBuffer());
    expect((await detail((await lastOf("&path=/images/*")).id)).response).toMatchObject({
      contentType: "image/png",
      text: expect.stringMatching(/^\(\d+ bytes of image\/png\)$/),
    });
  });

  it("filters by path pattern, status or status class, and method", async () => {
    await call(sim, "/api/v2/collection/0x0000000000000000000000000000000000000001");
    await postJson(sim, "/api/v2/item/new", {});
    await call(sim, "/api/v2/collection?perPage=2");
    const list = async (filters: string) =>
      (await call(sim, `/_sim/requests?limit=1000&${filters}`)).body.requests as {
        path: string;
        status: number;
        method: string;
      }[];
    const notFound = await list("status=404");
    expect(notFound.length).toBeGreaterThan(0);
    expect(notFound.every(({ status }) => status === 404)).toBe(true);
    const clientErrors = await list("status=4xx");
    expect(new Set(clientErrors.map(({ status }) => status))).toEqual(new Set([401, 404]));
    const posts = await list("method=POST&path=/api/v2/**");
    expect(posts.length).toBeGreaterThan(0);
    expect(posts.every(({ method, path }) => method === "POST" && path.startsWith("/api/v2/"))).toBe(true);
    const one = await list("path=/api/v2/collection/*");
    expect(one.every(({ path }) => /^\/api\/v2\/collection\/[^/]+$/.test(path))).toBe(true);
    expect(one.length).toBeGreaterThan(0);
    for (const bad of ["status=4x", "status=600", "method=FETCH", "limit=0", "path="])
      expectErrorBody((await call(sim, `/_sim/requests?${bad}`)).body, "VALIDATION_FAILED");
    expectErrorBody((await call(sim, "/_sim/requests/999999")).body, "NOT_FOUND");
  });

  it("records each error answer as it was sent: the route's, the body parser's and the router's", async () => {
    const sent: { path: string; status: number; text: string }[] = [];
    const send = async (path: string, init: RequestInit) => {
      const response = await fetch(`${sim.url}${path}`, init);
      sent.push({ path: new URL(path, sim.url).pathname, status: response.status, text: await response.text() });
    };
    const json = { method: "POST", headers: { "content-type": "application/json" } };
    await send("/api/v2/item/new", { ...json, body: "{}" });
    await send(`/api/v2/item/new?apiKey=${DEMO_KEYS.studio}`, { ...json, body: "{not json" });
    await send(`/api/v2/item/new?apiKey=${DEMO_KEYS.studio}`, { ...json, body: "x".repeat(200_000) });
    await send("/api/v2/item/new", { method: "GET" });
    expect(sent.map(({ status }) => status)).toEqual([401, 400, 413, 405]);
    const logged = (await call(sim, `/_sim/requests?limit=${sent.length}`)).body.requests.reverse();
    for (const [i, { path, status, text }] of sent.entries()) {
      expectErrorBody(
        JSON.parse(text),
        ["UNAUTHORIZED", "INVALID_JSON", "PAYLOAD_TOO_LARGE", "METHOD_NOT_ALLOWED"][i]!,
      );
      expect(logged[i]).toMatchObject({ path, status });
      expect((await detail(logged[i].id)).response.text).toBe(text);
    }
  });

  it("leaves out the dashboard's own requests and reads of itself; keeps bodies for the newest 200 only", async () => {
    const before = (await lastOf()).id;
    await call(sim, "/api/v2/collection?perPage=4", { headers: { [DASHBOARD_HEADER]: "1" } });
    await call(sim, "/_sim/requests?limit=3");
    // A picture the dashboard's page loads names the page it is on; the same picture in a frontend's page is logged.
    const page = new URL("/", sim.url).href;
    const picture = (referer: string) => fetch(new URL("/images/dragon-skies.png", sim.url), { headers: { referer } });
    expect((await picture(`${page}#/collection/x`)).status).toBe(200);
    expect((await lastOf()).id).toBe(before);
    expect((await picture("http://localhost:5173/shop")).status).toBe(200);
    expect((await lastOf()).path).toBe("/images/dragon-skies.png");
    const logged = (await lastOf()).id;
    expect(logged).toBeGreaterThan(before);
    await call(sim, "/_sim/requests?limit=3");
    expect((await lastOf()).id).toBe(logged);
    for (let i = 0; i < 201; i++) await call(sim, `/api/v2/collection?perPage=1&page=${i + 1}`);
    const old = await detail(logged);
    expect(old).toMatchObject({ id: logged, bodiesKept: false, request: null, response: null });
    expect((await detail((await lastOf()).id)).bodiesKept).toBe(true);
  });
});

describe("masking", () => {
  // Whatever a secret is and wherever it stands, the request log never shows it whole.

  const params = { numRuns: 200 };
  const secret = fc.string({ minLength: 9, maxLength: 60, unit: "grapheme-ascii" });
  const name = fc.constantFrom(
    "apiKey",
    "walletKey",
    "adminToken",
    "token",
    "secret",
    "password",
    "api_key",
    "privateKey",
  );

  describe("masking secrets", () => {
    it("a secret field of a JSON body, at any depth", () => {
      fc.assert(
        fc.property(name, secret, fc.jsonValue(), (field, value, other) => {
          const text = JSON.stringify({ other, nested: [{ [field]: value }] });
          const shown = maskSecrets(text, []);
          expect(shown).not.toContain(JSON.stringify(value).slice(1, -1));
          expect(JSON.parse(shown).nested[0][field]).toBe(`${value.slice(0, 4)}…`);
        }),
        params,
      );
    });

    it("a secret parameter of a query or form", () => {
      fc.assert(
        fc.property(name, secret, (field, value) => {
          const text = new URLSearchParams({ a: "1", [field]: value, b: "2" }).toString();
          const shown = maskSecrets(text, []);
          expect(new URLSearchParams(shown).get(field)).toBe(`${value.slice(0, 4)}…`);
          expect(new URLSearchParams(shown).get("b")).toBe("2");
        }),
        params,
      );
    });

    it("a known API key anywhere, under any name", () => {
      const key = fc.stringMatching(/^[a-z0-9-]{9,30}$/);
      fc.assert(
        fc.property(key, fc.string(), fc.string(), (apiKey, before, after) => {
          const shown = maskSecrets(`${before}${JSON.stringify({ owner: apiKey, minters: [apiKey] })}${after}`, [
            apiKey,
          ]);
          expect(shown).not.toContain(apiKey);
        }),
        params,
      );
    });

    it("leaves the rest alone: token ids, a key's neighbours", () => {
      expect(maskSecrets('{"tokenId":"12","tokenIds":[1],"name":"apiKey"}', [])).toBe(
        '{"tokenId":"12","tokenIds":[1],"name":"apiKey"}',
      );
    });
  });
});
