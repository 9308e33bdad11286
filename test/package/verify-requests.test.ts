import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RequestVerificationError, startSimulator, type RunningSimulator } from "../../src/package/index.ts";

// sim.verify(): the request log asserted on as WireMock's verify does it, against a real simulator's log.

let sim: RunningSimulator;
let collection: string;

beforeAll(async () => {
  sim = await startSimulator({ fixture: "demo", cache: false });
  collection = sim.world.collections["dragon-riders"]!.address;
  await fetch(`${sim.url}/api/v2/collection?perPage=2&sortDir=asc`);
  await fetch(`${sim.url}/api/v2/collection/${collection}`);
  await fetch(`${sim.url}/api/v2/collection/${collection}`);
  const mint = await fetch(`${sim.url}/api/v2/item/new?apiKey=demo-studio-key`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ collectionAddress: collection, recipient: sim.accounts[0]!.wallet, chainId: 56, item: {} }),
  });
  expect(mint.status).toBe(400);
});
afterAll(() => sim?.close());

describe("sim.verify()", () => {
  it("answers the requests that match a method, a path or pattern, query values, a status and a count", async () => {
    expect(
      await sim.verify({ method: "get", path: "/api/v2/collection", query: { perPage: 2, sortDir: "asc" } }),
    ).toEqual([
      expect.objectContaining({
        method: "GET",
        path: "/api/v2/collection",
        query: "perPage=2&sortDir=asc",
        status: 200,
      }),
    ]);
    expect(await sim.verify({ path: `/api/v2/collection/${collection}`, count: 2 })).toHaveLength(2);
    expect(await sim.verify({ path: "/api/v2/collection/*", count: { atLeast: 2, atMost: 2 } })).toHaveLength(2);
    // The log masks API keys; a key given whole matches its masked form.
    const [mint] = await sim.verify({
      method: "POST",
      path: "/api/v2/item/new",
      query: { apiKey: "demo-studio-key" },
      status: "4xx",
      count: 1,
    });
    expect(mint!.query).toBe("apiKey=demo…");
    expect(await sim.verify({ path: "/api/v2/item/new", status: 200, count: 0 })).toEqual([]);
  });

  it("fails with what it expected, what it found and the closest requests the log holds, each with what differs", async () => {
    const failed = await sim
      .verify({ method: "GET", path: "/api/v2/collection", query: { sortDir: "desc" } })
      .catch((error: unknown) => error);
    expect(failed).toBeInstanceOf(RequestVerificationError);
    const error = failed as RequestVerificationError;
    expect(error.name).toBe("RequestVerificationError");
    const lines = error.message.split("\n");
    expect(lines[0]).toMatch(
      /^expected at least 1 request GET \/api\/v2\/collection\?sortDir=desc, found 0 among the last \d+ the log holds\.$/,
    );
    expect(lines[1]).toBe("The closest:");
    expect(lines[2]).toMatch(
      /^ {2}#\d+ GET \/api\/v2\/collection\?perPage=2&sortDir=asc → 200 {3}\(differs: query sortDir=asc\)$/,
    );
    expect(lines).toHaveLength(5);
    expect(error.closest).toHaveLength(3);
    expect(error.matched).toEqual([]);
  });

  it("fails on too many, listing those that matched", async () => {
    const error = (await sim
      .verify({ path: `/api/v2/collection/${collection}`, count: 1 })
      .catch((thrown: unknown) => thrown)) as RequestVerificationError;
    expect(error.message).toMatch(/^expected 1 request \(any method\) \/api\/v2\/collection\/0x[0-9a-f]{40}, found 2 /);
    expect(error.message).toContain("Those that matched:");
    expect(error.matched).toHaveLength(2);
  });
});
