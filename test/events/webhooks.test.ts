import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { demoWorld } from "../../src/scenario/worlds.ts";
import type { Simulator } from "../../src/simulator/simulator.ts";
import { call, collectionsOn, expectErrorBody, mintItem, postJson, startTestSimulator } from "../harness.ts";
import { eventually, until } from "../eventually.ts";

// Webhooks over real HTTP: receivers on loopback that verify each delivery with the standardwebhooks
// library, one that fails twice, one that redirects, one that is not there at all under 10,000 events.

interface Received {
  headers: IncomingHttpHeaders;
  body: string;
}

/** A receiver on a free loopback port; `answer` picks each request's status (200 unless told). */
async function receiver(
  answer: (received: Received, count: number) => number | [number, Record<string, string>] = () => 200,
) {
  const received: Received[] = [];
  const server: Server = createServer((request, response) => {
    let body = "";
    request.on("data", (chunk) => (body += chunk));
    request.on("end", () => {
      const got = { headers: request.headers, body };
      received.push(got);
      const given = answer(got, received.length);
      const [status, headers] = Array.isArray(given) ? given : [given, {}];
      response.writeHead(status, headers).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
  return { url, received, close: () => new Promise((resolve) => server.close(resolve)) };
}

let sim: Simulator;
const closing: (() => unknown)[] = [];

const webhook = async (id: string) => (await call(sim, `/_sim/webhooks/${id}`)).body;
/** The webhook once its delivery log holds what `settled` asks. */
const webhookOnce = (id: string, settled: (stats: Record<string, number>) => boolean) =>
  eventually(async () => {
    const body = await webhook(id);
    if (!settled(body.stats)) throw new Error(`webhook ${id}: ${JSON.stringify(body.stats)}`);
    return body;
  });

beforeAll(async () => {
  sim = await startTestSimulator(demoWorld(), {
    webhookHosts: ["hooks.internal.test"],
    events: { delivery: { backoffMs: 20, maxBackoffMs: 100, attempts: 3 } },
  });
});

afterAll(async () => {
  await Promise.all(closing.map((close) => close()));
  await sim?.close();
});

describe("webhooks", () => {
  it("deliver each event signed as Standard Webhooks has it (verified by the standardwebhooks library), with a delivery log", async () => {
    const hook = await receiver();
    closing.push(hook.close);
    const [collection] = await collectionsOn(sim, 56);
    const added = await postJson(sim, "/_sim/webhooks", { url: hook.url, collection, kinds: ["TransferSingle"] });
    expect(added.status, JSON.stringify(added.body)).toBe(200);
    expect(added.body.secret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
    const minted = await mintItem(sim, { collection: collection!, chainId: 56, item: { initialSupply: 2 } });
    expect(minted.status).toBe(200);
    await until("the receiver to get the event", () => hook.received.length >= 1);
    const [delivery] = hook.received;
    const verified = new Webhook(added.body.secret).verify(
      delivery!.body,
      delivery!.headers as Record<string, string>,
    ) as {
      type: string;
      timestamp: string;
      data: { id: string };
    };
    expect(delivery!.headers["webhook-signature"]).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
    expect(() =>
      new Webhook(`whsec_${Buffer.alloc(24, 7).toString("base64")}`).verify(
        delivery!.body,
        delivery!.headers as Record<string, string>,
      ),
    ).toThrow();
    const { body: history } = await call(sim, `/api/v2/item/events/${collection}/${minted.body.tokenIds[0]}`);
    expect(verified).toMatchObject({ type: "TransferSingle", data: history.events[0] });
    expect(new Date(verified.timestamp).toISOString()).toBe(verified.timestamp);

    const detail = await webhookOnce(added.body.id, (stats) => stats.delivered === 1);
    expect(detail.stats).toEqual({ pending: 0, delivered: 1, failed: 0, dropped: 0 });
    expect(detail.deliveries[0]).toMatchObject({
      messageId: delivery!.headers["webhook-id"],
      eventId: verified.data.id,
      status: "delivered",
      attempts: 1,
      responseStatus: 200,
    });
    expect(detail.deliveries[0].latencyMs).toBeGreaterThan(0);
    expect(detail.secret, "the secret is shown once").toBeUndefined();
    expect((await call(sim, "/_sim/webhooks")).body.webhooks.map((w: { id: string }) => w.id)).toContain(added.body.id);
    expect((await call(sim, `/_sim/webhooks/${added.body.id}`, { method: "DELETE" })).status).toBe(200);
    expect((await call(sim, `/_sim/webhooks/${added.body.id}`)).status).toBe(404);
  });

  it("retry with backoff a receiver that fails twice, under the same webhook-id, until it takes the message", async () => {
    const hook = await receiver((_received, count) => (count <= 2 ? 503 : 204));
    closing.push(hook.close);
    const secret = `whsec_${Buffer.alloc(32, 1).toString("base64")}`;
    const [collection] = await collectionsOn(sim, 137);
    const added = await postJson(sim, "/_sim/webhooks", { url: hook.url, secret, chainId: 137, collection });
    expect(added.body.secret).toBe(secret);
    await mintItem(sim, { collection: collection!, chainId: 137 });
    const detail = await webhookOnce(added.body.id, (stats) => stats.delivered === 1);
    expect(detail.deliveries[0]).toMatchObject({ status: "delivered", attempts: 3, responseStatus: 204 });
    expect(hook.received).toHaveLength(3);
    expect(new Set(hook.received.map((r) => r.headers["webhook-id"])).size).toBe(1);
    for (const got of hook.received) new Webhook(secret).verify(got.body, got.headers as Record<string, string>);
  });

  it("never follow a redirect: a 3xx is a failed attempt, and the place it points at gets nothing", async () => {
    const elsewhere = await receiver();
    const hook = await receiver(() => [307, { location: elsewhere.url }]);
    closing.push(hook.close, elsewhere.close);
    const [collection] = await collectionsOn(sim, 56);
    const added = await postJson(sim, "/_sim/webhooks", { url: hook.url, collection });
    await mintItem(sim, { collection: collection!, chainId: 56 });
    const detail = await webhookOnce(added.body.id, (stats) => stats.failed >= 1);
    expect(detail.deliveries.at(-1)).toMatchObject({ status: "failed", attempts: 3, responseStatus: 307 });
    expect(elsewhere.received).toHaveLength(0);
  });

  it("keep at most their queue's bound for a receiver that is not there, under 10,000 events; the API answers as ever", async () => {
    const gone = await receiver();
    await gone.close();
    const [collection] = await collectionsOn(sim, 56);
    const added = await postJson(sim, "/_sim/webhooks", {
      url: gone.url,
      collection,
      kinds: ["TransferSingle", "TransferBatch"],
    });
    expect(added.status).toBe(200);
    const held: number[] = [];
    let minted = 0;
    for (let round = 0; round < 100; round++) {
      const answer = await mintItem(sim, {
        collection: collection!,
        chainId: 56,
        item: { isStackable: false, initialSupply: 100 },
      });
      expect(answer.status, JSON.stringify(answer.body)).toBe(200);
      minted += answer.body.tokenIds.length;
      held.push((await webhook(added.body.id)).stats.pending);
    }
    expect(minted).toBe(10_000);
    const { stats, deliveries } = await webhook(added.body.id);
    expect(Math.max(...held)).toBeLessThanOrEqual(1000);
    // Every event was taken in and accounted for; all but the queue's bound were let go (dropped, or failed after every attempt).
    expect(stats.pending + stats.dropped + stats.failed + stats.delivered).toBe(10_000);
    expect(stats.dropped + stats.failed).toBeGreaterThanOrEqual(9_000);
    expect(stats.delivered).toBe(0);
    expect(deliveries.length).toBeLessThanOrEqual(100);
    expect(sim.events.feed.buffered().length).toBeLessThanOrEqual(5_000);
    expect((await call(sim, `/api/v2/collection/${collection}`)).status).toBe(200);
  }, 120_000);

  it("refuse a URL off the allowed hosts with 400, and take loopback, names resolving to it, and --webhook-hosts", async () => {
    for (const url of [
      "http://10.1.2.3/hook",
      "http://169.254.169.254/latest/meta-data",
      "http://0.0.0.0:9400/",
      "http://[::ffff:a01:203]/",
      "https://example.invalid/hook",
      "ftp://127.0.0.1/hook",
      "not a url",
    ]) {
      const refused = await postJson(sim, "/_sim/webhooks", { url });
      expect(refused.status, url).toBe(400);
      expectErrorBody(refused.body, "VALIDATION_FAILED");
    }
    for (const url of [
      "http://127.0.0.1:9400/hook",
      "http://127.3.4.5:9400/",
      "http://[::1]:9400/",
      "http://localhost:9400/hook",
      "http://2130706433:9400/",
      "http://hooks.internal.test/hook",
    ]) {
      const added = await postJson(sim, "/_sim/webhooks", { url });
      expect(added.status, `${url}: ${JSON.stringify(added.body)}`).toBe(200);
      await call(sim, `/_sim/webhooks/${added.body.id}`, { method: "DELETE" });
    }
    const own = new URL(sim.url).port;
    for (const url of [`http://127.0.0.1:${own}/_sim/reset`, `http://localhost:${own}/_sim/snapshots`]) {
      const itself = await postJson(sim, "/_sim/webhooks", { url });
      expect(itself.status, url).toBe(400);
      expect(itself.body.errors[0]).toMatch(/the simulator itself/);
    }
    const badSecret = await postJson(sim, "/_sim/webhooks", { url: "http://127.0.0.1:9400/", secret: "hunter2" });
    expect(badSecret.status).toBe(400);
  });
});
