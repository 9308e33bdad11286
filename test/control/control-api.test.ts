import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Address } from "viem";
import { demoWorld } from "../../src/scenario/worlds.ts";
import type { Simulator } from "../../src/simulator/simulator.ts";
import {
  call,
  chainHeads,
  collectionsOn,
  DEMO_KEYS,
  expectErrorBody,
  mintItem,
  postJson,
  startTestSimulator,
} from "../harness.ts";
import { until } from "../eventually.ts";

// The control API over real HTTP, on the demo world: time, snapshots, reset, world editing,
// faults and the request log.

let sim: Simulator;
beforeAll(async () => {
  sim = await startTestSimulator(demoWorld());
});
afterAll(() => sim?.close());

const del = (path: string) => call(sim, path, { method: "DELETE" });

async function collectionWithSales(): Promise<{
  address: Address;
  chainId: number;
  volume_1d: number;
  volume_1w: number;
  volume_30d: number;
  volume_all: number;
}> {
  const { body } = await call(sim, "/api/v2/collection?perPage=100");
  return body.collections.find((collection: { volume_1d: number }) => collection.volume_1d > 0);
}

/** Every sale of a collection, from its items' histories: when, and its USD worth. */
async function salesOf(address: string): Promise<{ timestamp: number; worth: number }[]> {
  const { body } = await call(sim, `/_sim/collections/${address}/items`);
  const sales = new Map<string, { timestamp: number; worth: number }>();
  for (const { tokenId } of body.items) {
    for (let page = 1; ; page += 1) {
      const { events } = (await call(sim, `/api/v2/item/events/${address}/${tokenId}?perPage=100&page=${page}`)).body;
      for (const event of events)
        if (event.event === "Swapped") sales.set(event.id, { timestamp: event.timestamp, worth: event.worth });
      if (events.length < 100) break;
    }
  }
  return [...sales.values()];
}

/** The volume rule: the sum of the sales' worth (USD) less than 1, 7 and 30 days before the chain's head, and all of them; in cents. */
function volumesAt(now: number, sales: { timestamp: number; worth: number }[]) {
  const within = (days: number) => sales.filter(({ timestamp }) => now - timestamp < days * 86_400);
  const sum = (chosen: { worth: number }[]) =>
    Math.round(chosen.reduce((total, { worth }) => total + worth, 0) * 100) / 100;
  return { volume_1d: sum(within(1)), volume_1w: sum(within(7)), volume_30d: sum(within(30)), volume_all: sum(sales) };
}

describe("time", () => {
  it("GET /_sim/time gives each chain's head; the volumes follow the volume rule before and after advancing 2, then 6 days", async () => {
    const before = (await call(sim, "/_sim/time")).body.chains;
    expect(before.map((chain: { chainId: number }) => chain.chainId)).toEqual([56, 137]);
    const sold = await collectionWithSales();
    const sales = await salesOf(sold.address);
    const clockOf = (chains: { chainId: number; timestamp: number }[]) =>
      chains.find((chain) => chain.chainId === sold.chainId)!.timestamp;
    const volumes = (collection: { volume_1d: number; volume_1w: number; volume_30d: number; volume_all: number }) => ({
      volume_1d: collection.volume_1d,
      volume_1w: collection.volume_1w,
      volume_30d: collection.volume_30d,
      volume_all: collection.volume_all,
    });
    const expected = volumesAt(clockOf(before), sales);
    expect(expected.volume_1d).toBeGreaterThan(0);
    expect(volumes(sold)).toEqual(expected);

    let now = clockOf(before);
    const seen = [expected];
    for (const days of [2, 6]) {
      const advanced = await postJson(sim, "/_sim/time/advance", { seconds: days * 86_400 });
      expect(advanced.status).toBe(200);
      for (const [i, chain] of advanced.body.chains.entries())
        expect(chain.timestamp).toBe(before[i].timestamp + (now - clockOf(before)) + days * 86_400);
      now = clockOf(advanced.body.chains);
      const after = (await call(sim, `/api/v2/collection/${sold.address}`)).body.collection;
      expect(volumes(after), `${days} days later`).toEqual(volumesAt(now, sales));
      seen.push(volumesAt(now, sales));
    }
    // The advances moved sales out of the windows: the figures are not the same throughout.
    expect(seen[1]!.volume_1d).toBeLessThan(seen[0]!.volume_1d);
    expect(seen[2]!.volume_1w).toBeLessThan(seen[0]!.volume_1w);
  });

  it("advances one chain when asked, and refuses an unknown chain and a bad body", async () => {
    const before = (await call(sim, "/_sim/time")).body.chains;
    const one = await postJson(sim, "/_sim/time/advance", { seconds: 60, chainId: 137 });
    expect(one.body.chains[0].timestamp).toBe(before[0].timestamp);
    expect(one.body.chains[1].timestamp).toBe(before[1].timestamp + 60);
    expectErrorBody((await postJson(sim, "/_sim/time/advance", { seconds: 60, chainId: 5 })).body, "NOT_FOUND");
    expectErrorBody((await postJson(sim, "/_sim/time/advance", { seconds: -1 })).body, "VALIDATION_FAILED");
  });
});

describe("snapshots", () => {
  it("snapshot, mint, revert: the mint is gone from history and counts, and the next mint gets the same token id; again and again", async () => {
    const [collection] = (await collectionsOn(sim, 56)) as [Address];
    const holdersBefore = (await call(sim, `/api/v2/collection/${collection}`)).body.collection.holders;
    const { id } = (await postJson(sim, "/_sim/snapshots", {})).body;
    const recipient = "0x00000000000000000000000000000000000000a1";
    let firstTokenId: number | undefined;
    for (let round = 0; round < 3; round += 1) {
      const minted = await mintItem(sim, { collection, chainId: 56, recipient });
      expect(minted.status).toBe(200);
      firstTokenId ??= minted.body.tokenIds[0];
      expect(minted.body.tokenIds[0]).toBe(firstTokenId);
      expect((await call(sim, `/api/v2/collection/${collection}`)).body.collection.holders).toBe(holdersBefore + 1);

      expect((await postJson(sim, `/_sim/snapshots/${id}/revert`, {})).body).toEqual({ ok: true });
      expect((await call(sim, `/api/v2/item/events/${collection}/${firstTokenId}`)).status).toBe(404);
      expect((await call(sim, `/api/v2/collection/${collection}`)).body.collection.holders).toBe(holdersBefore);
    }
    expectErrorBody((await postJson(sim, "/_sim/snapshots/999/revert", {})).body, "NOT_FOUND");
  });
});

describe("world editing", () => {
  it("a new API key, a collection it owns with a minter, mints by both, then the minter role revoked and granted again", async () => {
    const owner = await postJson(sim, "/_sim/api-keys", { name: "game-studio" });
    expect(owner.status).toBe(200);
    const helper = (await postJson(sim, "/_sim/api-keys", { name: "game-helper" })).body;
    expectErrorBody((await postJson(sim, "/_sim/api-keys", { name: "game-studio" })).body, "CONFLICT");

    const created = await postJson(sim, "/_sim/collections", {
      chainId: 137,
      name: "Fresh Blades",
      owner: owner.body.apiKey,
      minters: [helper.apiKey],
      genre: "RPG",
    });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const shown = (await call(sim, `/api/v2/collection/${created.body.address}`)).body.collection;
    expect(shown).toMatchObject({
      name: "Fresh Blades",
      genre: "RPG",
      ownerAddress: owner.body.wallet,
      slug: "fresh-blades",
      chainId: 137,
    });

    const mintAs = (apiKey: string) =>
      mintItem(sim, {
        collection: created.body.address,
        recipient: owner.body.wallet,
        chainId: 137,
        apiKey,
        item: { name: "Blade", initialSupply: 1 },
      });
    expect((await mintAs(owner.body.apiKey)).status).toBe(200);
    expect((await mintAs(helper.apiKey)).status).toBe(200);

    const revoked = await del(`/_sim/collections/${created.body.address}/minters/${helper.apiKey}`);
    expect(revoked.body).toMatchObject({ isMinter: false, wallet: helper.wallet });
    expect((await mintAs(helper.apiKey)).status).toBe(403);
    const granted = await postJson(sim, `/_sim/collections/${created.body.address}/minters`, { apiKey: helper.apiKey });
    expect(granted.body).toMatchObject({ isMinter: true });
    expect((await mintAs(helper.apiKey)).status).toBe(200);
  });

  it("refuses a collection whose metadata is too large to go on chain with 413, before anything is sent", async () => {
    const heads = await chainHeads(sim);
    const answer = await postJson(sim, "/_sim/collections", {
      chainId: 137,
      name: "Verbose",
      owner: DEMO_KEYS.studio,
      description: "d".repeat(5000),
      image: "i".repeat(2000),
      website: "w".repeat(2000),
    });
    expect(answer.status).toBe(413);
    expectErrorBody(answer.body, "PAYLOAD_TOO_LARGE");
    expect(answer.body.errors[0]).toMatch(/the collection's metadata is [0-9,]+ bytes .* 8,192 allowed/);
    expect(await chainHeads(sim)).toEqual(heads);
  });
});

describe("faults", () => {
  it("a status for two requests, then normal again; a faulted mint changes nothing on chain", async () => {
    const [collection] = await collectionsOn(sim, 56);
    const added = await postJson(sim, "/_sim/faults", {
      match: { method: "POST", path: "/api/v2/item/new" },
      effect: { status: 503 },
      times: 2,
    });
    expect(added.status).toBe(200);
    const heads = await chainHeads(sim);
    for (let i = 0; i < 2; i += 1)
      expectErrorBody((await mintItem(sim, { collection: collection!, chainId: 56 })).body, "CHAIN_UNAVAILABLE");
    expect(await chainHeads(sim)).toEqual(heads);
    expect((await mintItem(sim, { collection: collection!, chainId: 56 })).status).toBe(200);
    expect((await call(sim, "/_sim/faults")).body.faults[0]).toMatchObject({ id: added.body.id, applied: 2 });
    expect((await del(`/_sim/faults/${added.body.id}`)).body).toEqual({ ok: true });
  });

  it("a rate limit answers 429 with Retry-After past its requests; latency delays; a dropped connection fails the request", async () => {
    await postJson(sim, "/_sim/faults", {
      match: { path: "/api/v2/collection" },
      effect: { rateLimit: { requests: 3, perSeconds: 60 } },
    });
    const statuses: number[] = [];
    let last;
    for (let i = 0; i < 5; i += 1) statuses.push((last = await call(sim, "/api/v2/collection")).status);
    expect(statuses).toEqual([200, 200, 200, 429, 429]);
    expectErrorBody(last!.body, "TOO_MANY_REQUESTS");
    expect(Number(last!.headers.get("retry-after"))).toBeGreaterThan(0);
    await del("/_sim/faults");

    // Latency, told by order: the delayed read is answered after an undelayed one sent while it waits.
    await postJson(sim, "/_sim/faults", { match: { path: "/api/v2/collection/*" }, effect: { latencyMs: 1_500 } });
    const [collection] = await collectionsOn(sim, 56);
    const answered: string[] = [];
    const delayed = call(sim, `/api/v2/collection/${collection}`).then((answer) => (answered.push("delayed"), answer));
    await until("the delayed read to arrive", async () => (await call(sim, "/_sim/faults")).body.faults[0].applied > 0);
    expect((await call(sim, "/api/v2/collection?perPage=1")).status).toBe(200);
    answered.push("undelayed");
    expect((await delayed).status).toBe(200);
    expect(answered).toEqual(["undelayed", "delayed"]);
    await del("/_sim/faults");

    await postJson(sim, "/_sim/faults", { match: { path: "/api/v2/**" }, effect: { dropConnection: true }, times: 1 });
    await expect(call(sim, "/api/v2/collection")).rejects.toThrow();
    expect((await call(sim, "/api/v2/collection")).status).toBe(200);
  });

  it("refuses a rule that does nothing with 400", async () => {
    const rules = (await call(sim, "/_sim/faults")).body.faults;
    for (const effect of [{}, { latencyMs: 0 }, { dropConnection: false }, { latencyMs: 0, dropConnection: false }]) {
      const refused = await postJson(sim, "/_sim/faults", { match: { path: "/api/v2/**" }, effect });
      expect(refused.status, JSON.stringify(effect)).toBe(400);
      expectErrorBody(refused.body, "VALIDATION_FAILED");
    }
    expect((await call(sim, "/_sim/faults")).body.faults).toEqual(rules);
  });

  it.each([
    [
      "a path without its leading slash",
      { match: { path: "api/v2/collection" }, effect: { status: 503 } },
      /'api\/v2\/collection' never matches: a request's path starts with '\/'/,
    ],
    [
      "a path in the control API, which faults never touch",
      { match: { path: "/_sim/**" }, effect: { status: 503 } },
      /'\/_sim\/\*\*' never matches: fault rules never act on the control API/,
    ],
    [
      "a probability of 0",
      { match: { path: "/api/v2/**" }, effect: { status: 503 }, probability: 0 },
      /probability 0 never applies/,
    ],
  ])("refuses a rule that can never fire, %s, with 400 saying why", async (_what, rule, reason) => {
    const rules = (await call(sim, "/_sim/faults")).body.faults;
    const refused = await postJson(sim, "/_sim/faults", rule);
    expect(refused.status).toBe(400);
    expectErrorBody(refused.body, "VALIDATION_FAILED");
    expect(refused.body.errors).toEqual([expect.stringMatching(reason)]);
    expect((await call(sim, "/_sim/faults")).body.faults).toEqual(rules);
  });

  it("matches by API key: only that key's mints are faulted", async () => {
    const [collection] = await collectionsOn(sim, 56);
    await postJson(sim, "/_sim/faults", {
      match: { path: "/api/v2/item/new", apiKey: DEMO_KEYS.studio },
      effect: { status: 503 },
    });
    try {
      const heads = await chainHeads(sim);
      expectErrorBody((await mintItem(sim, { collection: collection!, chainId: 56 })).body, "CHAIN_UNAVAILABLE");
      expect(await chainHeads(sim)).toEqual(heads);
      // Another key reaches the route (and is refused there: the guest holds no minter role).
      const other = await mintItem(sim, { collection: collection!, chainId: 56, apiKey: DEMO_KEYS.guest });
      expect(other.status).toBe(403);
      expect(other.body.message).not.toMatch(/fault/);
      expect((await call(sim, "/_sim/faults")).body.faults[0].applied).toBe(1);
    } finally {
      await del("/_sim/faults");
    }
  });

  it("a seeded probability faults the same requests on every run", async () => {
    const run = async () => {
      await del("/_sim/faults");
      await postJson(sim, "/_sim/faults", {
        match: { path: "/api/v2/collection" },
        effect: { status: 500 },
        probability: 0.5,
        seed: 42,
      });
      const statuses: number[] = [];
      for (let i = 0; i < 12; i += 1) statuses.push((await call(sim, "/api/v2/collection")).status);
      return statuses;
    };
    const first = await run();
    expect(new Set(first)).toEqual(new Set([200, 500]));
    expect(await run()).toEqual(first);
    await del("/_sim/faults");
  });
});

describe("request log and reset", () => {
  it("lists the last requests newest first with the API key masked", async () => {
    await call(sim, "/api/v2/collection?perPage=1");
    await postJson(sim, "/api/v2/item/new?apiKey=demo-guest-key", {});
    const { body } = await call(sim, "/_sim/requests?limit=2");
    expect(body.requests).toHaveLength(2);
    expect(body.requests[0]).toMatchObject({ method: "POST", path: "/api/v2/item/new", status: 400, apiKey: "demo…" });
    expect(body.requests[1]).toMatchObject({ method: "GET", path: "/api/v2/collection", status: 200 });
    expect(JSON.stringify(body)).not.toContain("demo-guest-key");
  });

  it("reset returns to the world as loaded: collections made since are gone, snapshots too", async () => {
    const loaded = await demoCollectionCount();
    expect(loaded).toBeGreaterThan(5);
    expect((await postJson(sim, "/_sim/reset", {})).body).toEqual({ ok: true });
    expect(await demoCollectionCount()).toBe(5);
    expectErrorBody((await postJson(sim, "/_sim/snapshots/1/revert", {})).body, "NOT_FOUND");
    const sold = await collectionWithSales();
    expect(sold.volume_1d).toBeGreaterThan(0);
  });
});

async function demoCollectionCount(): Promise<number> {
  return (await call(sim, "/api/v2/collection?perPage=1")).body.count;
}
