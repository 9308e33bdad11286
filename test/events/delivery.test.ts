import { afterEach, describe, expect, it, vi } from "vitest";
import type { DeliveryOptions } from "../../src/core/event-tuning.ts";
import { DeliveryQueue, type Attempt, type Send } from "../../src/events/delivery.ts";
import type { FeedEntry } from "../../src/events/feed.ts";
import { until } from "../eventually.ts";

// One webhook's queue with a receiver scripted per message: the statuses its attempts get in turn (undefined for a
// connection that failed), each attempt noted with when it was sent (on vitest's clock, which the tests move).

const OPTIONS: DeliveryOptions = {
  attempts: 4,
  backoffMs: 100,
  maxBackoffMs: 250,
  timeoutMs: 1_000,
  queueLimit: 3,
  logLimit: 5,
};

const entry = (id: string): FeedEntry => ({ seq: 1, type: "TransferSingle", id, data: "{}", at: 0 });

function receiver(script: Record<string, (number | undefined)[]> = {}) {
  const sent: { id: string; messageId: string; at: number }[] = [];
  let inFlight = 0;
  let mostInFlight = 0;
  const held: (() => void)[] = [];
  let holding = false;
  const send: Send = async (message, messageId) => {
    inFlight += 1;
    mostInFlight = Math.max(mostInFlight, inFlight);
    sent.push({ id: message.id, messageId, at: Date.now() });
    if (holding) await new Promise<void>((resolve) => held.push(resolve));
    inFlight -= 1;
    const statuses = script[message.id] ?? [200];
    const status = statuses.length > 1 ? statuses.shift() : statuses[0];
    return (status === undefined ? { error: "ECONNREFUSED", latencyMs: 1 } : { status, latencyMs: 1 }) as Attempt;
  };
  return {
    send,
    sent,
    mostInFlight: () => mostInFlight,
    hold: () => void (holding = true),
    release: () => {
      holding = false;
      for (const resolve of held.splice(0)) resolve();
    },
  };
}

afterEach(() => void vi.useRealTimers());

describe("DeliveryQueue", () => {
  it("delivers in order, one at a time, each message under one id on every attempt", async () => {
    const target = receiver({ b: [503, 200] });
    const queue = new DeliveryQueue(target.send, { ...OPTIONS, backoffMs: 1, maxBackoffMs: 1 });
    for (const id of ["a", "b", "c"]) queue.enqueue(entry(id));
    await until("all delivered", () => queue.stats.delivered === 3);
    expect(target.sent.map(({ id }) => id)).toEqual(["a", "b", "b", "c"]);
    expect(target.sent[1]!.messageId).toBe(target.sent[2]!.messageId);
    expect(target.sent[0]!.messageId).toMatch(/^msg_[0-9a-f]{32}$/);
    expect(target.mostInFlight()).toBe(1);
    expect(queue.stats).toEqual({ pending: 0, delivered: 3, failed: 0, dropped: 0 });
    expect(
      queue.log().map(({ eventId, status, attempts, responseStatus }) => [eventId, status, attempts, responseStatus]),
    ).toEqual([
      ["c", "delivered", 1, 200],
      ["b", "delivered", 2, 200],
      ["a", "delivered", 1, 200],
    ]);
  });

  it("waits twice as long before each next attempt, up to its longest wait, then fails the message and goes on", async () => {
    vi.useFakeTimers();
    const target = receiver({ down: [undefined, 500, 500, 500, 500] });
    const queue = new DeliveryQueue(target.send, { ...OPTIONS, attempts: 5, maxBackoffMs: 500 });
    queue.enqueue(entry("down"));
    queue.enqueue(entry("next"));
    await vi.advanceTimersByTimeAsync(10_000);
    const attempts = target.sent.filter(({ id }) => id === "down").map(({ at }) => at);
    expect(attempts.slice(1).map((at, i) => at - attempts[i]!)).toEqual([100, 200, 400, 500]);
    expect(queue.stats).toEqual({ pending: 0, delivered: 1, failed: 1, dropped: 0 });
    const [, failed] = queue.log();
    expect(failed).toMatchObject({ eventId: "down", status: "failed", attempts: 5, responseStatus: 500 });
    expect(failed).not.toHaveProperty("error");
  });

  it("keeps at most its limit waiting: the oldest waiting one is dropped, never the one being delivered", async () => {
    const target = receiver();
    target.hold();
    const queue = new DeliveryQueue(target.send, OPTIONS);
    for (const id of ["1", "2", "3", "4", "5"]) queue.enqueue(entry(id));
    expect(queue.stats).toMatchObject({ pending: 3, dropped: 2 });
    target.release();
    await until("the rest delivered", () => queue.stats.pending === 0);
    expect(target.sent.map(({ id }) => id)).toEqual(["1", "4", "5"]);
    expect(queue.log().map(({ eventId, status }) => `${eventId} ${status}`)).toEqual([
      "5 delivered",
      "4 delivered",
      "3 dropped",
      "2 dropped",
      "1 delivered",
    ]);
  });

  it("keeps the newest deliveries in its log, up to its limit", async () => {
    const queue = new DeliveryQueue(receiver().send, { ...OPTIONS, queueLimit: 100 });
    for (let i = 1; i <= 8; i += 1) queue.enqueue(entry(String(i)));
    await until("all delivered", () => queue.stats.delivered === 8);
    expect(queue.log().map(({ eventId }) => eventId)).toEqual(["8", "7", "6", "5", "4"]);
  });

  it("closed, sends nothing more: the wait between attempts ends, what waits is dropped, what comes is ignored", async () => {
    vi.useFakeTimers();
    const target = receiver({ a: [503] });
    const queue = new DeliveryQueue(target.send, { ...OPTIONS, backoffMs: 60_000, maxBackoffMs: 60_000 });
    queue.enqueue(entry("a"));
    queue.enqueue(entry("b"));
    await vi.advanceTimersByTimeAsync(0);
    expect(vi.getTimerCount()).toBe(1);
    queue.close();
    expect(vi.getTimerCount()).toBe(0);
    queue.enqueue(entry("c"));
    await vi.advanceTimersByTimeAsync(120_000);
    expect(target.sent.map(({ id }) => id)).toEqual(["a"]);
    expect(queue.log().map(({ eventId, status }) => `${eventId} ${status}`)).toEqual(["b dropped", "a dropped"]);
    expect(queue.stats.pending).toBe(0);
  });
});
