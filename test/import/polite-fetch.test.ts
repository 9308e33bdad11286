import { createServer, type Server, type IncomingMessage, type ServerResponse } from "node:http";
import { type AddressInfo } from "node:net";
import { afterEach, describe, expect, it, afterAll, beforeAll } from "vitest";
import { PoliteFetcher, keepAnswer, retryAfterMs } from "../../src/import/polite-fetch.ts";
import { mkdtempSync, readdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { START_ERRORS, StartError } from "../../src/core/errors.ts";

describe("Retry-After", () => {
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
});

describe("against a scripted upstream", () => {
  // An upstream on 127.0.0.1 whose answers each test scripts by path: a list of statuses given in turn (the last one
  // again once the list is used up), each request it saw kept with its headers.

  let server: Server;
  let base: string;
  const scripts = new Map<string, { status: number; headers?: Record<string, string> }[]>();
  const seen: { path: string; headers: IncomingMessage["headers"] }[] = [];
  let inFlight = 0;
  let mostInFlight = 0;

  function answer(request: IncomingMessage, response: ServerResponse): void {
    const path = request.url!;
    seen.push({ path, headers: request.headers });
    inFlight += 1;
    mostInFlight = Math.max(mostInFlight, inFlight);
    const script = scripts.get(path) ?? [{ status: 200 }];
    const { status, headers = {} } = script.length > 1 ? script.shift()! : script[0]!;
    setTimeout(() => {
      inFlight -= 1;
      response.writeHead(status, { "content-type": "application/json", ...headers });
      response.end(JSON.stringify({ path, status }));
    }, 20);
  }

  beforeAll(async () => {
    server = createServer(answer);
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const asked = (path: string) => seen.filter((request) => request.path === path);

  describe("PoliteFetcher", () => {
    it("tries a 429 and a 5xx again, after the wait Retry-After asks for, and answers the first definitive answer", async () => {
      scripts.set("/busy", [{ status: 429, headers: { "retry-after": "0" } }, { status: 503 }, { status: 200 }]);
      const fetcher = new PoliteFetcher({ maxWaitMs: 5 });
      const got = await fetcher.get(`${base}/busy`);
      expect(got).toEqual({
        url: `${base}/busy`,
        status: 200,
        contentType: "application/json",
        text: JSON.stringify({ path: "/busy", status: 200 }),
      });
      expect(asked("/busy")).toHaveLength(3);
      expect(fetcher.counts).toEqual({ fetched: 1, fromCache: 0, retried: 2 });
    });

    it("waits no longer than its longest wait, whatever Retry-After asks", async () => {
      scripts.set("/slow-down", [{ status: 429, headers: { "retry-after": "3600" } }, { status: 200 }]);
      const asking = new PoliteFetcher({ maxWaitMs: 5 }).get(`${base}/slow-down`);
      // A bound that only a wait of the hour asked for would pass, not a measurement.
      const bound = new Promise<string>((resolve) => setTimeout(() => resolve("still waiting"), 10_000).unref());
      expect(await Promise.race([asking.then((got) => got.status), bound])).toBe(200);
    });

    it("gives up after its tries with a start error naming the URL, the last answer and the count", async () => {
      scripts.set("/down", [{ status: 502 }]);
      const thrown = await new PoliteFetcher({ tries: 3, maxWaitMs: 1 }).get(`${base}/down`).catch((error) => error);
      expect(thrown).toBeInstanceOf(StartError);
      expect((thrown as StartError).descriptor).toBe(START_ERRORS.IMPORT_UPSTREAM);
      expect((thrown as StartError).message).toBe(
        `the upstream could not be read: ${base}/down: answered 502, 3 tries (a rerun resumes from the cache)`,
      );
      expect(asked("/down")).toHaveLength(3);
    });

    it("answers a 4xx other than 429 at once, untried again", async () => {
      scripts.set("/bad", [{ status: 400 }]);
      expect((await new PoliteFetcher({ maxWaitMs: 1 }).get(`${base}/bad`)).status).toBe(400);
      expect(asked("/bad")).toHaveLength(1);
    });

    it("keeps no more requests in flight than its concurrency", async () => {
      mostInFlight = 0;
      const fetcher = new PoliteFetcher({ concurrency: 2 });
      const answers = await Promise.all(Array.from({ length: 7 }, (_, i) => fetcher.get(`${base}/page/${i}`)));
      expect(answers.map((got) => got.status)).toEqual(Array(7).fill(200));
      expect(mostInFlight).toBe(2);
    });

    it("sends the API key as a header, never in the URL", async () => {
      await new PoliteFetcher({ apiKey: "secret-key" }).get(`${base}/keyed`);
      const [request] = asked("/keyed");
      expect(request!.headers["altura_api_key"]).toBe("secret-key");
      expect(request!.headers.accept).toBe("application/json");
    });

    it("keeps 2xx and 404 answers in its cache, where a rerun reads them instead of the upstream; nothing else", async () => {
      const cacheDir = mkdtempSync(join(tmpdir(), "nft-sim-polite-"));
      scripts.set("/gone", [{ status: 404 }]);
      scripts.set("/teapot", [{ status: 418 }]);
      const first = new PoliteFetcher({ cacheDir });
      for (const path of ["/kept", "/gone", "/teapot"]) await first.get(`${base}${path}`);
      expect(readdirSync(cacheDir)).toHaveLength(2);

      const settled: [string, boolean][] = [];
      const again = new PoliteFetcher({ cacheDir, onAnswer: (got, fromCache) => settled.push([got.url, fromCache]) });
      expect((await again.get(`${base}/gone`)).status).toBe(404);
      await again.get(`${base}/kept`);
      await again.get(`${base}/teapot`);
      expect(asked("/kept")).toHaveLength(1);
      expect(asked("/gone")).toHaveLength(1);
      expect(asked("/teapot")).toHaveLength(2);
      expect(again.counts).toEqual({ fetched: 1, fromCache: 2, retried: 0 });
      expect(settled).toEqual([
        [`${base}/gone`, true],
        [`${base}/kept`, true],
        [`${base}/teapot`, false],
      ]);
    });

    it("reads an answer kept by keepAnswer as its own", async () => {
      const cacheDir = mkdtempSync(join(tmpdir(), "nft-sim-polite-"));
      const kept = { url: `${base}/never-asked`, status: 200, contentType: "application/json", text: '{"kept":true}' };
      keepAnswer(cacheDir, kept);
      expect(await new PoliteFetcher({ cacheDir }).get(kept.url)).toEqual(kept);
      expect(asked("/never-asked")).toHaveLength(0);
    });
  });

  describe("retryAfterMs", () => {
    it("reads delta-seconds and an HTTP date, never a wait below zero, and nothing of anything else", () => {
      expect(retryAfterMs("3")).toBe(3_000);
      expect(retryAfterMs(" 0 ")).toBe(0);
      expect(retryAfterMs(null)).toBeUndefined();
      expect(retryAfterMs("soon")).toBeUndefined();
      expect(retryAfterMs(new Date(Date.now() - 60_000).toUTCString())).toBe(0);
      const ahead = retryAfterMs(new Date(Date.now() + 60_000).toUTCString())!;
      expect(ahead).toBeGreaterThan(55_000);
      expect(ahead).toBeLessThanOrEqual(60_000);
    });
  });
});
