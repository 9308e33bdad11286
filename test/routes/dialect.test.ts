import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CONTROL_OPERATIONS } from "../../src/schemas/control-operations.ts";
import { SERVED_OPERATIONS } from "../../src/schemas/operations.ts";
import type { Simulator } from "../../src/simulator/simulator.ts";
import { call, collectionsOn, DEMO_KEYS, mintBody, sendRaw, startDemo } from "../harness.ts";

// The original's dialect, over real HTTP: the API key in the ALTURA_API_KEY header wherever the `apiKey` query
// parameter is taken, and an `Allow` header on every 405, the API's and the control API's alike.

let sim: Simulator;
let collection: string;
beforeAll(async () => {
  sim = await startDemo();
  [collection] = await collectionsOn(sim, 56);
});
afterAll(() => sim?.close());

const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
  call(sim, path, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify(body),
  });

describe("the ALTURA_API_KEY header", () => {
  it("mints with the key in the header alone", async () => {
    const minted = await post("/api/v2/item/new", mintBody(sim, collection!, 56), { ALTURA_API_KEY: DEMO_KEYS.studio });
    expect(minted.status, JSON.stringify(minted.body)).toBe(200);
    expect(minted.body.txHash).toMatch(/^0x[0-9a-f]{64}$/);
    const history = await call(sim, `/api/v2/item/events/${collection}/${minted.body.tokenIds[0]}`);
    expect(history.body.events[0]).toMatchObject({ event: "TransferSingle", amount: "5" });
  });

  it("is refused 400 naming both when the query names another key", async () => {
    const refused = await post(`/api/v2/item/new?apiKey=${DEMO_KEYS.studio}`, mintBody(sim, collection!, 56), {
      ALTURA_API_KEY: DEMO_KEYS.arcade,
    });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toBe("VALIDATION_FAILED");
    expect(refused.body.message).toContain("apiKey");
    expect(refused.body.message).toContain("ALTURA_API_KEY");
    const read = await call(sim, `/api/v2/collection/${collection}?apiKey=a`, { headers: { ALTURA_API_KEY: "b" } });
    expect(read.status).toBe(400);
  });

  it("is the same key as the query's when both are given alike, and an unknown one is 401", async () => {
    const same = await post(`/api/v2/item/new?apiKey=${DEMO_KEYS.studio}`, mintBody(sim, collection!, 56), {
      ALTURA_API_KEY: DEMO_KEYS.studio,
    });
    expect(same.status).toBe(200);
    const unknown = await post("/api/v2/item/new", mintBody(sim, collection!, 56), { ALTURA_API_KEY: "nobody" });
    expect(unknown.status).toBe(401);
    expect((await post("/api/v2/item/new", mintBody(sim, collection!, 56))).body.message).toContain("ALTURA_API_KEY");
  });
});

describe("a 405", () => {
  const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"];
  const routes = [...SERVED_OPERATIONS, ...CONTROL_OPERATIONS].map(({ method, path }) => ({
    method: method.toUpperCase(),
    path: path.replace(/:[A-Za-z]+/g, (name) => (name === ":chainId" ? "56" : name === ":tokenId" ? "1" : "x")),
  }));
  const byPath = new Map<string, Set<string>>();
  for (const { method, path } of routes) byPath.set(path, new Set([...(byPath.get(path) ?? []), method]));

  it("carries Allow naming the methods its path takes, on every path of both route tables", async () => {
    let refused = 0;
    for (const [path, taken] of byPath) {
      const method = METHODS.find((candidate) => !taken.has(candidate))!;
      const answer = await sendRaw(`${sim.url}${path}`, { method, headers: { "content-type": "application/json" } });
      expect(answer.status, `${method} ${path}`).toBe(405);
      expect(answer.body.error).toBe("METHOD_NOT_ALLOWED");
      const allow = answer.headers.get("allow")?.split(", ") ?? [];
      for (const method of taken) expect(allow, `${method} ${path}`).toContain(method);
      refused += 1;
    }
    expect(refused).toBe(byPath.size);
    expect(refused).toBeGreaterThan(20);
  });

  it("carries Allow for a method no route takes", async () => {
    const answer = await sendRaw(`${sim.url}/api/v2/collection`, { method: "PROPFIND" });
    expect(answer.status).toBe(405);
    expect(answer.headers.has("allow")).toBe(true);
  });
});
