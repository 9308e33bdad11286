import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { PoliteFetcher } from "../../src/import/polite-fetch.ts";

// The polite fetcher against a real HTTP server: a 429 with Retry-After is tried again, and not before the wait asked.

let server: Server | undefined;
afterEach(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

/** A server answering each request by `answer(n)` (n from 1), noting when each arrived. */
async function upstream(answer: (n: number) => { status: number; headers?: Record<string, string>; body?: string }) {
  const arrivals: { n: number; at: number }[] = [];
  const answered: number[] = [];
  server = createServer((_req, res) => {
    const n = arrivals.push({ n: arrivals.length + 1, at: performance.now() });
    const { status, headers = {}, body = "" } = answer(n);
    res.writeHead(status, { "content-type": "application/json", ...headers }).end(body, () => {
      answered.push(performance.now());
    });
  });
  await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v2/collection`, arrivals, answered };
}

describe("PoliteFetcher", () => {
  it("tries a 429 again only after the Retry-After it names (1 s), then answers the 200", async () => {
    const live = await upstream((n) =>
      n === 1
        ? { status: 429, headers: { "retry-after": "1" } }
        : { status: 200, body: '{"collections":[],"count":0}' },
    );
    const fetcher = new PoliteFetcher({ concurrency: 1 });
    const answer = await fetcher.get(live.url);
    expect(answer).toMatchObject({ status: 200, text: '{"collections":[],"count":0}' });
    expect(fetcher.counts).toMatchObject({ fetched: 1, retried: 1 });
    expect(live.arrivals.map(({ n }) => n)).toEqual([1, 2]);
    // The second request left after the 429 was sent and the wait it asked for (a doubling backoff's first wait is
    // 250 ms). Less 1 ms: a timer fires on the millisecond, this clock reads below it.
    expect(live.arrivals[1]!.at - live.answered[0]!).toBeGreaterThanOrEqual(999);
  });

  it("waits as long for a Retry-After given as an HTTP date", async () => {
    const live = await upstream((n) =>
      n === 1
        ? { status: 503, headers: { "retry-after": new Date(Date.now() + 3_000).toUTCString() } }
        : { status: 200, body: "{}" },
    );
    const fetcher = new PoliteFetcher({ concurrency: 1 });
    expect((await fetcher.get(live.url)).status).toBe(200);
    expect(fetcher.counts.retried).toBe(1);
    // An HTTP date names whole seconds: two seconds at least after the 503 (where the backoff's first wait is 250 ms).
    expect(live.arrivals[1]!.at - live.answered[0]!).toBeGreaterThanOrEqual(1_900);
  });
});
