import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { ControlError, startSimulator, type FaultRule, type RunningSimulator } from "../../src/package/index.ts";
import { mintItem } from "../harness.ts";

// Fault rules that change the body a client reads: one given whole, or the route's own answer broken (malformed,
// truncated) or drifted (a field dropped, renamed, of another type, an extra one), on reads and on a mint; and the
// Retry-After of an injected 503 or 429. Against a real simulator of the demo world.

let sim: RunningSimulator;
let riders: string;

beforeAll(async () => {
  sim = await startSimulator({ fixture: "demo", cache: false });
  riders = sim.world.collections["dragon-riders"]!.address;
});
afterAll(() => sim?.close());
afterEach(() => sim.control.clearFaults());

const read = (path: string) => fetch(`${sim.url}${path}`);
const collectionPath = () => `/api/v2/collection/${riders}`;
const fault = (effect: FaultRule["effect"], extra: Partial<FaultRule> = {}) =>
  sim.control.addFault({ match: { path: "/api/v2/collection/*" }, effect, ...extra });

describe("a fault rule that changes the route's answer", () => {
  it("drops, renames, retypes and adds fields, in that order, once (times: 1), then answers as before", async () => {
    const before = (await (await read(collectionPath())).json()).collection;
    const added = await fault(
      {
        body: {
          drop: ["collection.volume_all"],
          rename: { "collection.holders": "holderCount" },
          retype: { "collection.chainId": "string", "collection.name": "number" },
          add: { "collection.rarity": "legendary" },
        },
      },
      { times: 1 },
    );
    const answer = await read(collectionPath());
    expect(answer.status).toBe(200);
    expect(answer.headers.get("content-type")).toMatch(/^application\/json/);
    const { collection } = await answer.json();
    expect(collection).not.toHaveProperty("volume_all");
    expect(collection).not.toHaveProperty("holders");
    expect(collection.holderCount).toBe(before.holders);
    expect(Object.keys(collection).indexOf("holderCount")).toBe(Object.keys(before).indexOf("holders"));
    expect(collection.chainId).toBe(String(before.chainId));
    expect(collection.name).toBe(0); // a name that reads as no number
    expect(collection.rarity).toBe("legendary");
    expect((await (await read(collectionPath())).json()).collection).toEqual(before);
    expect((await sim.control.faults()).find((rule) => rule.id === added.id)?.applied).toBe(1);
  });

  it("reaches every element with *: each listed collection loses its name", async () => {
    await sim.control.addFault({
      match: { path: "/api/v2/collection" },
      effect: { body: { drop: ["collections.*.name"], retype: { count: "string" } } },
    });
    const { collections, count } = await (await read("/api/v2/collection?perPage=3")).json();
    expect(collections).toHaveLength(3);
    for (const collection of collections) expect(collection).not.toHaveProperty("name");
    expect(count).toBe("5");
  });

  it("breaks the JSON (a comma before its last bracket) or cuts it after N bytes, with a length that says so", async () => {
    const whole = await (await read(collectionPath())).text();
    await fault({ body: { malformed: true } }, { times: 1 });
    const malformed = await (await read(collectionPath())).text();
    expect(malformed).toBe(`${whole.slice(0, -1)},}`);
    expect(() => JSON.parse(malformed)).toThrow(SyntaxError);

    await fault({ body: { truncate: 40 } }, { times: 1 });
    const cut = await read(collectionPath());
    expect(cut.headers.get("content-length")).toBe("40");
    expect(await cut.text()).toBe(whole.slice(0, 40));
  });

  it("lets a mint through (the item is made) and changes only what the client reads", async () => {
    await sim.control.addFault({
      match: { method: "POST", path: "/api/v2/item/new" },
      effect: { body: { drop: ["txHash"], retype: { tokenIds: "string" } } },
      times: 1,
    });
    const answer = await mintItem(sim, {
      collection: riders,
      chainId: 56,
      item: { name: "Drifted", initialSupply: 1 },
    });
    expect(answer.status).toBe(200);
    const minted = answer.body;
    expect(minted).not.toHaveProperty("txHash");
    expect(typeof minted.tokenIds).toBe("string");
    const tokenId = JSON.parse(minted.tokenIds)[0];
    const { events } = await (await read(`/api/v2/item/events/${riders}/${tokenId}`)).json();
    expect(events[0]).toMatchObject({ event: "TransferSingle", tokenId });
  });

  it("is what the request log shows as the answer", async () => {
    await fault({ body: { add: { "collection.extra": true } } }, { times: 1 });
    await read(collectionPath());
    const [logged] = await sim.verify({ path: collectionPath(), count: { atLeast: 1 } });
    expect(JSON.parse((await sim.control.loggedRequest(logged!.id)).response!.text).collection.extra).toBe(true);
  });

  it("applies to a seeded share of the requests (probability), the same ones on every run", async () => {
    const run = async () => {
      await sim.control.clearFaults();
      await fault({ body: { malformed: true } }, { probability: 0.5, seed: 7 });
      const broken: boolean[] = [];
      for (let i = 0; i < 12; i += 1)
        broken.push(await read(collectionPath()).then(async (answer) => (await answer.text()).endsWith(",}")));
      return broken;
    };
    const first = await run();
    expect(first).toContain(true);
    expect(first).toContain(false);
    expect(await run()).toEqual(first);
  });
});

describe("a fault rule that gives a body whole", () => {
  it("answers its JSON with its status (default 200), without calling the route", async () => {
    await sim.control.addFault({
      match: { path: "/api/v2/collection" },
      effect: { body: { json: { collections: [], count: 0 } } },
      times: 1,
    });
    const answer = await read("/api/v2/collection");
    expect([answer.status, answer.headers.get("content-type"), await answer.text()]).toEqual([
      200,
      "application/json; charset=utf-8",
      '{"collections":[],"count":0}',
    ]);
  });

  it("answers its text with its content type: a proxy's HTML page instead of JSON", async () => {
    await fault({ status: 502, body: { text: "<html><body>Bad gateway</body></html>", contentType: "text/html" } });
    const answer = await read(collectionPath());
    expect(answer.status).toBe(502);
    expect(answer.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(await answer.text()).toBe("<html><body>Bad gateway</body></html>");
  });
});

describe("Retry-After", () => {
  it("comes with an injected 503 and 429 (1 s unless retryAfter says otherwise), and with a given body", async () => {
    await fault({ status: 503 }, { times: 1 });
    const unavailable = await read(collectionPath());
    expect([unavailable.status, unavailable.headers.get("retry-after")]).toEqual([503, "1"]);
    await fault({ status: 429, retryAfter: 30 }, { times: 1 });
    const limited = await read(collectionPath());
    expect([limited.status, limited.headers.get("retry-after")]).toEqual([429, "30"]);
    expect((await limited.json()).error).toBe("TOO_MANY_REQUESTS");
    await fault({ status: 503, body: { text: "down for maintenance" } }, { times: 1 });
    const given = await read(collectionPath());
    expect([given.status, given.headers.get("retry-after"), await given.text()]).toEqual([
      503,
      "1",
      "down for maintenance",
    ]);
    await fault({ status: 500 }, { times: 1 });
    expect((await read(collectionPath())).headers.get("retry-after")).toBeNull();
  });
});

describe("a body rule that says two things at once, or nothing", () => {
  it.each([
    ["json and text", { body: { json: {}, text: "x" } }, /gives both json and text/],
    [
      "a given body and an edit",
      { body: { json: {}, drop: ["a"] } },
      /gives a body whole and changes the route's answer \(drop\)/,
    ],
    ["a status with an edit", { status: 503, body: { malformed: true } }, /status answers the error body/],
    ["a status below 400 without a body", { status: 200 }, /status 200 answers nothing but a body/],
    ["retryAfter without a status", { latencyMs: 5, retryAfter: 3 }, /retryAfter is sent with a status/],
    [
      "a content type without text",
      { body: { json: 1, contentType: "text/html" } },
      /contentType is the type of body\.text/,
    ],
    ["a dropped connection with a body", { dropConnection: true, body: { malformed: true } }, /its body is never sent/],
    ["an empty key in a path", { body: { drop: ["collection..name"] } }, /(empty key|must match pattern)/],
    ["an edit that is off", { body: { malformed: false } }, /does nothing/],
  ])("refuses %s with 400 saying why", async (_what, effect, reason) => {
    const refused = await fault(effect as FaultRule["effect"]).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(ControlError);
    expect((refused as ControlError).status).toBe(400);
    expect((refused as ControlError).body.errors).toEqual(expect.arrayContaining([expect.stringMatching(reason)]));
    expect(await sim.control.faults()).toEqual([]);
  });
});
