import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from "vitest";
import { startSimulator, type RunningSimulator, type SimEvent } from "../../src/package/index.ts";

// The package's iterator over GET /_sim/events: typed events from a real simulator, the loop left
// with break (the connection closes), and a start after a given event.

let sim: RunningSimulator;
const collectionOn = async (chainId: number): Promise<string> =>
  (await (await fetch(`${sim.url}/api/v2/collection?chainId=${chainId}&perPage=1`)).json()).collections[0].address;
const mint = async (collection: string) => {
  const studio = sim.accounts.find((account) => account.apiKey === "demo-studio-key")!;
  const response = await fetch(`${sim.url}/api/v2/item/new?apiKey=${studio.apiKey}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      collectionAddress: collection,
      recipient: studio.wallet,
      chainId: 56,
      item: { name: "Iterated", initialSupply: 2 },
    }),
  });
  expect(response.status).toBe(200);
  return (await response.json()) as { txHash: string; tokenIds: number[] };
};

beforeAll(async () => {
  sim = await startSimulator({ fixture: "demo", cache: false });
});
afterAll(() => sim?.close());

describe("sim.events()", () => {
  it("types each event's data by its type (checked by tsc)", () => {
    expectTypeOf<Extract<SimEvent, { type: "Swapped" }>["data"]["worth"]>().toEqualTypeOf<number>();
    expectTypeOf<Extract<SimEvent, { type: "TransferSingle" }>["data"]["event"]>().toEqualTypeOf<"TransferSingle">();
    expectTypeOf<Extract<SimEvent, { type: "CollectionCreated" }>["data"]["holders"]>().toEqualTypeOf<number>();
    expectTypeOf<Extract<SimEvent, { type: "removed" }>["data"]["id"]>().toEqualTypeOf<string>();
  });

  it("yields a mint's transfer, typed by its kind, and ends when the loop is left", async () => {
    const collection = await collectionOn(56);
    const seen: SimEvent[] = [];
    const events = sim.events({ collection, kinds: ["TransferSingle"] });
    await events.ready;
    const minting = mint(collection);
    for await (const e of events) {
      seen.push(e);
      if (e.type === "TransferSingle") {
        expect(e.data.itemCollection).toBe(collection);
        expect(e.id).toBe(e.data.id);
        break;
      }
    }
    const minted = await minting;
    expect(seen).toHaveLength(1);
    expect(seen[0]!.data).toMatchObject({ transactionHash: minted.txHash, tokenId: minted.tokenIds[0], amount: "2" });
  });

  it("starts after lastEventId: what came since is yielded first", async () => {
    const collection = await collectionOn(56);
    const first = await mint(collection);
    const second = await mint(collection);
    const { events } = await (await fetch(`${sim.url}/api/v2/item/events/${collection}/${first.tokenIds[0]}`)).json();
    const controller = new AbortController();
    const yielded: SimEvent[] = [];
    for await (const e of sim.events({ collection, lastEventId: events[0].id, signal: controller.signal })) {
      yielded.push(e);
      if (yielded.length === 1) controller.abort();
    }
    expect(yielded[0]).toMatchObject({ type: "TransferSingle", data: { transactionHash: second.txHash } });
  });
});
