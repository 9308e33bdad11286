import { createServer, connect, type AddressInfo, type Socket } from "node:net";
import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from "vitest";
import {
  ControlError,
  EventTimeoutError,
  startSimulator,
  type RunningSimulator,
  type SimEvent,
} from "../../src/package/index.ts";
import { streamEvents } from "../../src/package/events-client.ts";
import { until, within } from "../eventually.ts";
import { mintItem } from "../harness.ts";

// The package's iterator over GET /_sim/events: typed events from a real simulator, the loop left
// with break (the connection closes), a start after a given event, a loop that times out; one event
// awaited with sim.waitForEvent(); the client's errors by their names.

let sim: RunningSimulator;
const collectionOn = async (chainId: number): Promise<string> =>
  (await (await fetch(`${sim.url}/api/v2/collection?chainId=${chainId}&perPage=1`)).json()).collections[0].address;
const mint = async (collection: string) => {
  const response = await mintItem(sim, { collection, chainId: 56, item: { name: "Iterated", initialSupply: 2 } });
  expect(response.status).toBe(200);
  return response.body as { txHash: string; tokenIds: number[] };
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

describe("a dropped connection", () => {
  /** A TCP relay to the simulator that can cut every connection, and hold new ones until let through. */
  async function relay() {
    const target = new URL(sim.url);
    const open = new Set<Socket>();
    const held: Socket[] = [];
    const requests: string[] = [];
    let holding = false;
    const pass = (client: Socket) => {
      const upstream = connect(Number(target.port), target.hostname);
      open.add(client).add(upstream);
      client.once("data", (chunk: Buffer) => requests.push(chunk.toString("latin1")));
      client.pipe(upstream).pipe(client);
      for (const socket of [client, upstream]) {
        socket.on("error", () => undefined);
        socket.on("close", () => open.delete(socket));
      }
    };
    const server = createServer((client) => (holding ? held.push(client) : pass(client)));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    return {
      url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
      requests,
      held,
      cutAndHold() {
        holding = true;
        for (const socket of open) socket.destroy();
      },
      letThrough() {
        holding = false;
        held.splice(0).forEach(pass);
      },
      close: () => new Promise((resolve) => server.close(resolve)),
    };
  }

  it("reconnects with Last-Event-ID and yields what was indexed while it was away, once and in order", async () => {
    const collection = await collectionOn(56);
    const through = await relay();
    const controller = new AbortController();
    const events = streamEvents(`${through.url}/_sim`, {
      collection,
      kinds: ["TransferSingle"],
      signal: controller.signal,
    });
    await events.ready;
    const before = await mint(collection);
    const first = (await events.next()).value as SimEvent;
    expect(first.data).toMatchObject({ transactionHash: before.txHash });

    through.cutAndHold();
    await until("the client tries again", () => through.held.length > 0);
    const away = await mint(collection);
    through.letThrough();
    const second = (await within(events.next(), "the event indexed while the client was away")).value as SimEvent;
    expect(second.data).toMatchObject({ transactionHash: away.txHash });
    expect(through.requests).toHaveLength(2);
    expect(through.requests[1]!.toLowerCase()).toContain(`last-event-id: ${first.id!.toLowerCase()}`);
    const after = await mint(collection);
    expect(((await events.next()).value as SimEvent).data).toMatchObject({ transactionHash: after.txHash });
    controller.abort();
    await through.close();
  });
});

describe("a wait with a deadline", () => {
  it("sim.events({ timeout }): a loop still waiting throws EventTimeoutError naming what it was given", async () => {
    const collection = await collectionOn(56);
    const events = sim.events({ collection, timeout: 2_000 });
    await events.ready;
    const minted = await mint(collection);
    const given: SimEvent[] = [];
    const thrown = await (async () => {
      for await (const e of events) given.push(e); // waits for a sale that never comes
    })().catch((error: unknown) => error);
    expect(thrown).toBeInstanceOf(EventTimeoutError);
    const error = thrown as EventTimeoutError;
    expect(error.name).toBe("EventTimeoutError");
    expect(error.message).toContain(
      `sim.events({ collection: ${collection} }): the loop was still waiting after 2000 ms`,
    );
    expect(error.message).toContain(`it was given 1: TransferSingle TransferSingle-`);
    expect(error.message).toContain(`token ${minted.tokenIds[0]}`);
    expect(error.seen.map((e) => e.type)).toEqual(["TransferSingle"]);
    expect(given).toEqual(error.seen);
  });

  it("sim.waitForEvent(): the first event its match accepts, typed by its kinds; listening from the call", async () => {
    const collection = await collectionOn(56);
    const studio = sim.accounts.find((account) => account.apiKey === "demo-studio-key")!;
    const minting = sim.waitForEvent(
      { collection, kinds: ["TransferSingle"], where: (e) => e.data.to === studio.wallet.toLowerCase() },
      { timeout: 20_000 },
    );
    await minting.ready;
    const minted = await mint(collection);
    const heard = await minting;
    expectTypeOf(heard.data.event).toEqualTypeOf<"TransferSingle">();
    expect(heard.data).toMatchObject({ transactionHash: minted.txHash, tokenId: minted.tokenIds[0] });
  });

  it("sim.waitForEvent(): past its timeout, rejects with EventTimeoutError naming each event seen meanwhile", async () => {
    const collection = await collectionOn(56);
    const sold = sim.waitForEvent({ collection, where: (e) => e.type === "Swapped" }, { timeout: 2_000 });
    await sold.ready;
    const minted = await mint(collection);
    const error = (await sold.catch((thrown: unknown) => thrown)) as EventTimeoutError;
    expect(error).toBeInstanceOf(EventTimeoutError);
    expect(error.message).toMatch(
      new RegExp(
        `^sim\\.waitForEvent\\(\\{ collection: ${collection} \\} and its where\\(\\)\\): no event matched within 2000 ms; ` +
          `saw 1: TransferSingle TransferSingle-\\S+ \\(chain 56, ${collection}, token ${minted.tokenIds[0]}\\)\\.$`,
      ),
    );
    expect(error.seen).toHaveLength(1);
  });

  it("sim.waitForEvent(): an aborted signal gives up at once, with its reason", async () => {
    const controller = new AbortController();
    const waiting = sim.waitForEvent({ kinds: ["Swapped"] }, { signal: controller.signal });
    await waiting.ready;
    controller.abort(new Error("the test moved on"));
    await expect(waiting).rejects.toThrow("the test moved on");
  });
});

describe("the client's errors", () => {
  it("are named for what they are: a refusal of the control API is a ControlError with its status and body", async () => {
    const refused = await sim.control.revert("no-such-snapshot").catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(ControlError);
    expect(refused).toMatchObject({ name: "ControlError", status: 404, body: { error: "NOT_FOUND" } });
    expect(String(refused)).toMatch(/^ControlError: 404 NOT_FOUND: /);
  });
});
