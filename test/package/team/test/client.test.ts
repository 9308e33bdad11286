// A team's client test, in a project whose npm runs on Node 20 and whose tests run on the Node 22 it installed: an
// event awaited with a deadline, a request verified in the log, a client against broken and drifted answers (as
// docs/testing.md shows it).
import { EventTimeoutError, startSimulator, type RunningSimulator, type SimEventOf } from "nft-service-simulator";
import { afterAll, beforeAll, expect, it } from "vitest";

// The client under test: reads a collection's holders, and says what it could not read.
async function holdersOf(api: string, address: string): Promise<number | { retryAfter: number } | { error: string }> {
  const response = await fetch(`${api}/api/v2/collection/${address}`);
  if (response.status === 503) return { retryAfter: Number(response.headers.get("retry-after")) };
  try {
    const { collection } = JSON.parse(await response.text());
    return typeof collection.holders === "number" ? collection.holders : { error: "holders missing" };
  } catch {
    return { error: "unreadable answer" };
  }
}

let sim: RunningSimulator;
let riders: string;
beforeAll(async () => {
  sim = await startSimulator({ fixture: "demo" });
  riders = sim.world.collections["dragon-riders"]!.address;
});
afterAll(() => sim.close());

it("hears a sale arranged in the world within its deadline, and is told what came when none does", async () => {
  const saddle = sim.world.items["sky-saddle"]!;
  const sold = sim.waitForEvent({ collection: saddle.collection, kinds: ["Swapped"] }, { timeout: 20_000 });
  await sold.ready;
  await sim.arrange({
    timeline: [
      {
        action: "list",
        listing: "sale",
        item: "sky-saddle",
        seller: "alice",
        amount: 1,
        price: "10",
        currency: "native",
      },
      { action: "buy", listing: "sale", buyer: "bob", amount: 1 },
    ],
  });
  const sale: SimEventOf<"Swapped"> = await sold;
  expect(sale.data).toMatchObject({
    from: sim.world.accounts.alice!.address,
    to: sim.world.accounts.bob!.address,
    price: 10,
  });
  const none = await sim
    .waitForEvent({ collection: saddle.collection, kinds: ["Swapped"] }, { timeout: 300 })
    .catch((error: unknown) => error);
  expect(none).toBeInstanceOf(EventTimeoutError);
  expect((none as Error).name).toBe("EventTimeoutError");
});

it("copes with a malformed answer, a drifted one and a 503", async () => {
  const path = "/api/v2/collection/*";
  await sim.control.addFault({ match: { path }, effect: { body: { malformed: true } }, times: 1 });
  expect(await holdersOf(sim.url, riders)).toEqual({ error: "unreadable answer" });
  await sim.control.addFault({
    match: { path },
    effect: { body: { retype: { "collection.holders": "string" } } },
    times: 1,
  });
  expect(await holdersOf(sim.url, riders)).toEqual({ error: "holders missing" });
  await sim.control.addFault({ match: { path }, effect: { status: 503 }, times: 1 });
  expect(await holdersOf(sim.url, riders)).toEqual({ retryAfter: 1 });
  expect(await holdersOf(sim.url, riders)).toEqual(expect.any(Number));
  await sim.verify({ method: "GET", path, count: 4 });
});
