import fc from "fast-check";
import type { EventSourceMessage } from "eventsource-parser";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { demoWorld } from "../../src/scenario/worlds.ts";
import type { Simulator } from "../../src/simulator/simulator.ts";
import {
  call,
  collectionsOn,
  DEMO_KEYS,
  expectErrorBody,
  mintItem,
  postJson,
  RPC_ON_FREE_PORTS,
  startTestSimulator,
} from "../harness.ts";
import { rpc as rpcCall } from "../rpc.ts";
import { setBalanceBehindTheIndex } from "../control/world-answers.ts";
import { openStream, type OpenStream } from "./sse.ts";

// GET /_sim/events over real HTTP, from a real chain: what a mint, a transfer over JSON-RPC, a
// collection and an evm_revert make the stream say, each filter, resuming with Last-Event-ID, heartbeats.

const BUFFER = 60;
let sim: Simulator;
let rpc: (method: string, params?: unknown[]) => Promise<unknown>;
const streams: OpenStream[] = [];

const stream = async (query = "", headers: Record<string, string> = {}) => {
  const opened = await openStream(`${sim.url}/_sim/events${query}`, headers);
  streams.push(opened);
  return opened;
};
const mint = async (collection: string, chainId: number, item: Record<string, unknown> = {}) => {
  const answer = await mintItem(sim, { collection, chainId, item });
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return answer.body as { tokenIds: number[]; txHash: string };
};
const itemEvents = (message: EventSourceMessage) => !["CollectionCreated", "removed", "gap"].includes(message.event!);

beforeAll(async () => {
  sim = await startTestSimulator(demoWorld(), {
    ...RPC_ON_FREE_PORTS,
    events: { buffer: BUFFER, stream: { heartbeatMs: 200 } },
  });
  rpc = (method, params = []) => rpcCall(sim.rpcUrls.get(56)!, method, params);
});

afterAll(async () => {
  streams.forEach((opened) => opened.close());
  await sim?.close();
});

describe("GET /_sim/events", () => {
  it("streams a mint's events as the item's history serves them (event: its kind, id: its id), with heartbeats", async () => {
    const [collection] = await collectionsOn(sim, 56);
    const events = await stream(`?collection=${collection}`);
    expect(events.status).toBe(200);
    const minted = await mint(collection!, 56, { initialSupply: 3 });
    const [message] = await events.waitFor(itemEvents);
    const history = await fetch(`${sim.url}/api/v2/item/events/${collection}/${minted.tokenIds[0]}`);
    const { events: served } = JSON.parse(await history.text());
    expect(message!.data).toBe(JSON.stringify(served[0]));
    expect(message!.event).toBe("TransferSingle");
    expect(message!.id).toBe(served[0].id);
    expect(served[0].transactionHash).toBe(minted.txHash);
    await events.waitForComment((comment) => comment.includes("heartbeat"));
  });

  it("streams a collection as it is created, as GET /api/v2/collection/:address serves it", async () => {
    const events = await stream("?kinds=CollectionCreated");
    const created = await postJson(sim, "/_sim/collections", {
      chainId: 137,
      name: "Streamed",
      owner: DEMO_KEYS.studio,
    });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const [message] = await events.waitFor((m) => m.event === "CollectionCreated");
    const { body } = await call(sim, `/api/v2/collection/${created.body.address}`);
    expect(JSON.parse(message!.data)).toEqual(body.collection);
    expect(message!.id).toBe(`CollectionCreated-137-${created.body.address}`);
  });

  it("lets through exactly what each filter names (chainId, collection, tokenId, kinds), as an unfiltered stream shows it", async () => {
    const [a, b] = await collectionsOn(sim, 56);
    const [c] = await collectionsOn(sim, 137);
    const kinds = ["TransferSingle", "TransferBatch", "CollectionCreated", "ItemListed"];
    const filter = fc.record(
      {
        chainId: fc.constantFrom(56, 137),
        collection: fc.constantFrom(a!, b!, c!, a!.toUpperCase().replace("0X", "0x")),
        tokenId: fc.integer({ min: 1, max: 12 }),
        kinds: fc.uniqueArray(fc.constantFrom(...kinds), { minLength: 1, maxLength: 3 }),
      },
      { requiredKeys: [] },
    );
    // Each run: 14 filters open together over the same mints. A failure is not shrunk (each run mints again).
    const ran = { filters: 0, arrived: 0, filtersExpectingNothing: 0 };
    await fc.assert(
      fc.asyncProperty(fc.array(filter, { minLength: 14, maxLength: 14 }), async (filters) => {
        const everything = await stream();
        const opened = await Promise.all(
          filters.map(async (filter) => {
            const query = new URLSearchParams(
              Object.entries(filter).map(([name, value]) => [
                name,
                Array.isArray(value) ? value.join(",") : String(value),
              ]),
            );
            return { filter, events: await stream(`?${query}`) };
          }),
        );
        await mint(a!, 56, { initialSupply: 2 });
        await mint(b!, 56, { isStackable: false, initialSupply: 3 });
        await mint(c!, 137, { initialSupply: 4 });
        const last = await mint(a!, 56);
        const made = await postJson(sim, "/_sim/collections", {
          chainId: 56,
          name: "Filtered",
          owner: DEMO_KEYS.studio,
        });
        await everything.waitFor(
          (m) => m.event === "CollectionCreated" && JSON.parse(m.data).address === made.body.address,
        );
        expect(everything.messages.some((m) => JSON.parse(m.data).transactionHash === last.txHash)).toBe(true);
        // The feed pushes each event to every stream in one turn, in the simulator's own process: by now every stream
        // has been written all of this run's events. A heartbeat stamped later was written after them, so once it
        // has come, whatever a stream was going to get of them has come too: a late leak cannot slip past.
        const pushed = Date.now();
        for (const { filter, events } of opened) {
          const passes = (message: EventSourceMessage) => {
            const data = JSON.parse(message.data);
            const collection = message.event === "CollectionCreated" ? data.address : data.itemCollection;
            return (
              (filter.chainId === undefined || data.chainId === filter.chainId) &&
              (filter.collection === undefined || collection === filter.collection.toLowerCase()) &&
              (filter.tokenId === undefined || data.tokenId === filter.tokenId) &&
              (filter.kinds === undefined || filter.kinds.includes(message.event!))
            );
          };
          await events.waitForComment((comment) => Date.parse(comment.replace(/^\s*heartbeat /, "")) > pushed);
          const expected = everything.messages.filter(passes);
          expect(
            events.messages.map((m) => `${m.event} ${m.id}`),
            `filter ${JSON.stringify(filter)}`,
          ).toEqual(expected.map((m) => `${m.event} ${m.id}`));
          ran.filters += 1;
          ran.arrived += events.messages.length;
          if (expected.length === 0) ran.filtersExpectingNothing += 1;
          events.close();
        }
        everything.close();
      }),
      { numRuns: 5, endOnFailure: true },
    );
    console.log(`filtered streams: ${JSON.stringify(ran)}`);
    // The filters both let events through and hold every one back.
    expect(ran.filters).toBe(70);
    expect(ran.arrived).toBeGreaterThan(0);
    expect(ran.filtersExpectingNothing).toBeGreaterThan(0);
  });

  it("refuses a filter it does not know with 400", async () => {
    for (const query of ["?kinds=Minted", "?collection=0x12", "?tokenId=-1", "?chainId=abc", "?colour=red"]) {
      const refused = await call(sim, `/_sim/events${query}`);
      expect(refused.status, query).toBe(400);
      expectErrorBody(refused.body, "VALIDATION_FAILED");
    }
  });

  it("resumes after Last-Event-ID from its buffer, and says gap when the id is no longer there", async () => {
    const [collection] = await collectionsOn(sim, 137);
    const first = await stream(`?collection=${collection}`);
    await mint(collection!, 137);
    await mint(collection!, 137);
    await mint(collection!, 137);
    const seen = await first.waitFor(itemEvents, 3);
    first.close();
    const resumed = await stream(`?collection=${collection}`, { "last-event-id": seen[0]!.id! });
    await resumed.waitFor(itemEvents, 2);
    const later = await mint(collection!, 137);
    const after = await resumed.waitFor(itemEvents, 3);
    expect(after.map((m) => m.id)).toEqual([seen[1]!.id, seen[2]!.id, JSON.parse(after[2]!.data).id]);
    expect(JSON.parse(after[2]!.data).transactionHash).toBe(later.txHash);
    // As a query parameter too (for an EventSource's first connection, which sends no header).
    const byQuery = await stream(`?collection=${collection}&lastEventId=${encodeURIComponent(seen[1]!.id!)}`);
    await byQuery.waitFor(itemEvents, 2);

    // Past the buffer: more events than it keeps push the first one out.
    await mint(collection!, 137, { isStackable: false, initialSupply: BUFFER });
    expect(sim.events.feed.buffered()).toHaveLength(BUFFER);
    const tooLate = await stream(`?collection=${collection}`, { "last-event-id": seen[0]!.id! });
    const [gap] = await tooLate.waitFor((m) => m.event === "gap");
    expect(JSON.parse(gap!.data)).toMatchObject({ lastEventId: seen[0]!.id });
  });

  it("announces removed for what an evm_revert over JSON-RPC took back, and the history agrees", async () => {
    const [collection] = await collectionsOn(sim, 56);
    const events = await stream("?chainId=56");
    const snapshot = await rpc("evm_snapshot");
    const minted = await mint(collection!, 56, { initialSupply: 2 });
    const created = await postJson(sim, "/_sim/collections", {
      chainId: 56,
      name: "Reverted",
      owner: DEMO_KEYS.studio,
    });
    const [transfer] = await events.waitFor(
      (m) => itemEvents(m) && JSON.parse(m.data).transactionHash === minted.txHash,
    );
    await events.waitFor((m) => m.event === "CollectionCreated");
    expect(await rpc("evm_revert", [snapshot])).toBe(true);
    const removed = await events.waitFor((m) => m.event === "removed", 2);
    expect(removed.map((m) => JSON.parse(m.data))).toEqual(
      expect.arrayContaining([
        {
          id: transfer!.id,
          event: "TransferSingle",
          chainId: 56,
          collection,
          tokenId: minted.tokenIds[0],
        },
        {
          id: `CollectionCreated-56-${created.body.address}`,
          event: "CollectionCreated",
          chainId: 56,
          collection: created.body.address,
        },
      ]),
    );
    expect(removed.every((m) => m.id === JSON.parse(m.data).id)).toBe(true);
    expect((await call(sim, `/api/v2/item/events/${collection}/${minted.tokenIds[0]}`)).status).toBe(404);
    expect((await call(sim, `/api/v2/collection/${created.body.address}`)).status).toBe(404);
    // The index went back to a checkpoint and folded again what the chain still holds: that is not told.
    expect(events.messages.filter((m) => m.event === "removed")).toHaveLength(2);
  });
  /** The ids the stream announced and has not taken back since (a `removed` takes back what has its id). */
  const standing = (messages: EventSourceMessage[]) => {
    const ids = new Set<string>();
    for (const m of messages)
      if (m.event === "removed") ids.delete(m.id!);
      else if (m.id) ids.add(m.id);
    return ids;
  };

  it("announces removed for a mint a snapshot reverted through the control API took back", async () => {
    const [collection] = await collectionsOn(sim, 56);
    const events = await stream(`?collection=${collection}`);
    const { body: snapshot } = await postJson(sim, "/_sim/snapshots", {});
    const minted = await mint(collection!, 56);
    const [transfer] = await events.waitFor(
      (m) => itemEvents(m) && JSON.parse(m.data).transactionHash === minted.txHash,
    );
    expect((await postJson(sim, `/_sim/snapshots/${snapshot.id}/revert`, {})).status).toBe(200);
    const [removed] = await events.waitFor((m) => m.event === "removed");
    expect(JSON.parse(removed!.data)).toEqual({
      id: transfer!.id,
      event: "TransferSingle",
      chainId: 56,
      collection,
      tokenId: minted.tokenIds[0],
    });
  });

  it("resumes from a removed id: after the event it took back, so the removal itself comes, and no gap", async () => {
    const [collection] = await collectionsOn(sim, 56);
    const events = await stream(`?collection=${collection}`);
    const { body: snapshot } = await postJson(sim, "/_sim/snapshots", {});
    await mint(collection!, 56);
    expect((await postJson(sim, `/_sim/snapshots/${snapshot.id}/revert`, {})).status).toBe(200);
    const [removed] = await events.waitFor((m) => m.event === "removed");
    const resumed = await stream(`?collection=${collection}`, { "last-event-id": removed!.id! });
    const [first] = await resumed.waitFor(() => true);
    expect(first!.event).not.toBe("gap");
    await resumed.waitFor((m) => m.event === "removed" && m.id === removed!.id);
  });

  it("a fragment rolled back after an entry reverted on chain leaves nothing announced standing", async () => {
    const [collection] = await collectionsOn(sim, 56);
    const events = await stream("?chainId=56");
    const { body: world } = await call(sim, "/_sim/world");
    const saddle = world.items["sky-saddle"];
    const before = standing(events.messages);
    await setBalanceBehindTheIndex(
      sim,
      56,
      { collection: saddle.collection, tokenId: BigInt(saddle.tokenIds[0]) },
      world.accounts.alice.address,
      0n,
    );
    const refused = await postJson(sim, "/_sim/scenario", {
      timeline: [
        { action: "transfer", item: "healing-brew", from: "bob", to: "alice", amount: 1 },
        { action: "transfer", item: "sky-saddle", from: "alice", to: "bob", amount: 1, at: "+1h" },
      ],
    });
    expect(refused.status, JSON.stringify(refused.body)).toBe(422);
    expect(refused.body.message).toMatch(/nothing of the fragment was kept/);
    // A mint after it marks the end: whatever the fragment made the stream say has been said by the time it comes.
    const marker = await mint(collection!, 56);
    await events.waitFor((m) => itemEvents(m) && JSON.parse(m.data).transactionHash === marker.txHash);
    const markerIds = events.messages
      .filter((m) => itemEvents(m) && JSON.parse(m.data).transactionHash === marker.txHash)
      .map((m) => m.id!);
    expect([...standing(events.messages)].sort()).toEqual([...before, ...markerIds].sort());
  });

  it("announces removed for what a reset took back", async () => {
    const [collection] = await collectionsOn(sim, 56);
    const events = await stream(`?collection=${collection}`);
    const minted = await mint(collection!, 56);
    const [transfer] = await events.waitFor(
      (m) => itemEvents(m) && JSON.parse(m.data).transactionHash === minted.txHash,
    );
    expect((await postJson(sim, "/_sim/reset", {})).status).toBe(200);
    await events.waitFor((m) => m.event === "removed" && m.id === transfer!.id);
    expect((await call(sim, `/api/v2/item/events/${collection}/${minted.tokenIds[0]}`)).status).toBe(404);
  });
});
