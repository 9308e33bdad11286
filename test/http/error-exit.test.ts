import { createServer, type Server } from "node:http";
import { type AddressInfo, connect } from "node:net";
import Koa from "koa";
import { afterAll, beforeAll, expect, it, describe } from "vitest";
import { RequestLog } from "../../src/control/request-log.ts";
import { apiError, ERRORS } from "../../src/core/errors.ts";
import { errorExit } from "../../src/http/error-exit.ts";
import { demoWorld } from "../../src/scenario/worlds.ts";
import type { Simulator } from "../../src/simulator/simulator.ts";
import { call, collectionsOn, mintBody, postJson, RPC_ON_FREE_PORTS, startTestSimulator } from "../harness.ts";

// The one way out of the app, over real HTTP: an error of the catalog thrown anywhere below (or wrapped by a library as
// its cause) is answered as its body; anything else is a bug, 500 INTERNAL, its stack told and never sent; the request
// log records each answer exactly as it was sent, errors included.

const reported: string[] = [];
const log = new RequestLog();
let server: Server;
let url: string;

beforeAll(async () => {
  const app = new Koa();
  app.use(errorExit(log, (message) => reported.push(message)));
  app.use((ctx) => {
    if (ctx.path === "/down")
      throw apiError(ERRORS.CHAIN_DOWN, { chainId: 56 }, { errors: ["chain 56: the node at x does not answer"] });
    if (ctx.path === "/wrapped") {
      const full = apiError(ERRORS.STORAGE_FULL, { dir: "./state", code: "ENOSPC" }, { errors: ["no space left"] });
      throw new Error("HTTP request failed.", { cause: full });
    }
    if (ctx.path === "/bug") throw new TypeError("Cannot read properties of undefined (reading 'chainId')");
    if (ctx.path === "/ok") ctx.body = { ok: true };
  });
  server = createServer(app.callback()).listen(0, "127.0.0.1");
  await new Promise((resolve) => server.once("listening", resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise((resolve) => server?.close(resolve)));

async function get(path: string) {
  const response = await fetch(`${url}${path}`);
  return { status: response.status, text: await response.text() };
}

it("answers each failure as the catalog says, a bug as 500 without its stack, and logs what it sent", async () => {
  const answers = {
    "/down": await get("/down"),
    "/wrapped": await get("/wrapped"),
    "/bug": await get("/bug"),
    "/nowhere": await get("/nowhere"),
    "/ok": await get("/ok"),
  };
  expect(answers["/down"].status).toBe(503);
  expect(JSON.parse(answers["/down"].text)).toEqual({
    error: "CHAIN_UNAVAILABLE",
    message: "Chain 56 does not answer",
    errors: ["chain 56: the node at x does not answer"],
  });
  expect(answers["/wrapped"].status).toBe(507);
  expect(JSON.parse(answers["/wrapped"].text)).toEqual({
    error: "STORAGE_FULL",
    message: "The journal in ./state cannot be written (ENOSPC): nothing was changed",
    errors: ["no space left"],
  });
  expect(answers["/bug"].status).toBe(500);
  expect(JSON.parse(answers["/bug"].text)).toEqual({
    error: "INTERNAL",
    message: "The simulator failed; this is a bug in it",
    errors: ["The simulator failed; this is a bug in it"],
  });
  expect(answers["/bug"].text).not.toMatch(/TypeError|chainId|at /);
  expect(reported).toEqual([expect.stringMatching(/^GET \/bug failed: TypeError: Cannot read properties[^]*\n\s+at /)]);
  expect(answers["/nowhere"].status).toBe(404);
  expect(JSON.parse(answers["/nowhere"].text)).toMatchObject({
    error: "NOT_FOUND",
    message: "Route GET /nowhere not found",
  });

  const logged = log.last({ limit: 10 }).reverse();
  expect(logged.map(({ path, status }) => [path, status])).toEqual(
    Object.entries(answers).map(([path, { status }]) => [path, status]),
  );
  for (const [i, { text }] of Object.values(answers).entries())
    expect(log.detail(logged[i]!.id)!.response!.text).toBe(text);
});

describe("client errors", () => {
  // What Node's HTTP parser refuses, and what a key-guessing client gets, answered as the API answers.

  let sim: Simulator;
  beforeAll(async () => {
    sim = await startTestSimulator(demoWorld(), {
      ...RPC_ON_FREE_PORTS,
    });
  });
  afterAll(() => sim?.close());

  /** Sends raw bytes and answers the status line and the body of what comes back (the server closes: `keepOpen` leaves our side open until it does). */
  function raw(
    url: string,
    request: string,
    { keepOpen = false } = {},
  ): Promise<{ status: number; body: string; headers: string }> {
    const { port, hostname } = new URL(url);
    return new Promise((resolve, reject) => {
      let answer = "";
      const socket = connect(Number(port), hostname, () => (keepOpen ? socket.write(request) : socket.end(request)));
      socket.on("data", (chunk) => (answer += chunk)).on("error", reject);
      socket.on("close", () => {
        const [head = "", body = ""] = answer.split("\r\n\r\n");
        // A chunked answer here is one chunk: its size line, the chunk, the last-chunk line.
        const content = /transfer-encoding: chunked/i.test(head) ? body.split("\r\n")[1]! : body;
        resolve({ status: Number(head.split(" ")[1]), headers: head, body: content });
      });
    });
  }

  it("oversized headers answer 431 with the JSON error body", async () => {
    const answer = await raw(
      sim.url,
      `GET /api/v2/collection HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: ${"a".repeat(20_000)}\r\n\r\n`,
    );
    expect(answer.status).toBe(431);
    expect(JSON.parse(answer.body)).toEqual({
      error: "HEADERS_TOO_LARGE",
      message: "The request headers are too large",
      errors: ["The request headers are too large"],
    });
  });

  it("a request that is not HTTP answers 400 with the JSON error body", async () => {
    const answer = await raw(sim.url, "HELLO THERE\r\n\r\n");
    expect(answer.status).toBe(400);
    expect(JSON.parse(answer.body).error).toBe("VALIDATION_FAILED");
  });

  it("an HTTP/1.1 request without a Host header answers 400 with the JSON error body, and an HTTP/1.0 one is served", async () => {
    const answer = await raw(sim.url, "GET /api/v2/collection HTTP/1.1\r\nConnection: close\r\n\r\n");
    expect(answer.status).toBe(400);
    expect(JSON.parse(answer.body)).toEqual({
      error: "VALIDATION_FAILED",
      message: "An HTTP/1.1 request needs a Host header",
      errors: ["An HTTP/1.1 request needs a Host header"],
    });
    expect((await raw(sim.url, "GET /api/v2/collection?perPage=1 HTTP/1.0\r\n\r\n", { keepOpen: true })).status).toBe(
      200,
    );
  });

  it("an Expect other than 100-continue answers 417 with the JSON error body, and 100-continue still works", async () => {
    const answer = await raw(
      sim.url,
      "GET /api/v2/collection HTTP/1.1\r\nHost: 127.0.0.1\r\nExpect: foo\r\nConnection: close\r\n\r\n",
    );
    expect(answer.status).toBe(417);
    expect(JSON.parse(answer.body)).toEqual({
      error: "EXPECTATION_FAILED",
      message: "Expect: 'foo' is not supported (only 100-continue)",
      errors: ["Expect: 'foo' is not supported (only 100-continue)"],
    });
    const continued = await raw(
      sim.url,
      "GET /api/v2/collection?perPage=1 HTTP/1.1\r\nHost: 127.0.0.1\r\nExpect: 100-continue\r\nConnection: close\r\n\r\n",
    );
    expect(continued.headers).toMatch(/^HTTP\/1\.1 100 Continue/);
  });

  it("the JSON-RPC port answers a missing Host and an odd Expect as JSON-RPC errors", async () => {
    const rpc = sim.rpcUrls.get(56)!;
    const call = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "eth_chainId", params: [] });
    const noHost = await raw(
      rpc,
      `POST / HTTP/1.1\r\nContent-Type: application/json\r\nContent-Length: ${call.length}\r\nConnection: close\r\n\r\n${call}`,
    );
    expect(noHost.status).toBe(400);
    expect(JSON.parse(noHost.body)).toMatchObject({
      jsonrpc: "2.0",
      id: null,
      error: { message: "An HTTP/1.1 request needs a Host header" },
    });
    const expectFoo = await raw(
      rpc,
      `POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nExpect: foo\r\nContent-Type: application/json\r\nContent-Length: ${call.length}\r\nConnection: close\r\n\r\n${call}`,
    );
    expect(expectFoo.status).toBe(417);
    expect(JSON.parse(expectFoo.body)).toMatchObject({
      jsonrpc: "2.0",
      id: null,
      error: { message: expect.stringMatching(/Expect: 'foo'/) },
    });
  });

  it("the JSON-RPC port answers its refusals (not HTTP, too large, not POST) as JSON-RPC errors", async () => {
    const rpc = sim.rpcUrls.get(56)!;
    const garbage = await raw(rpc, "HELLO THERE\r\n\r\n");
    expect(garbage.status).toBe(400);
    expect(JSON.parse(garbage.body)).toMatchObject({ jsonrpc: "2.0", id: null, error: { code: expect.any(Number) } });
    const body = "[" + "1,".repeat(600_000) + "1]";
    const large = await raw(
      rpc,
      `POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body}`,
    );
    expect(large.status).toBe(413);
    expect(JSON.parse(large.body).error.message).toMatch(/over 1000000 bytes/);
    const get = await fetch(rpc);
    expect(get.status).toBe(405);
    expect(((await get.json()) as { error: { code: number } }).error.code).toBe(-32600);
  });

  it("an address that keeps sending unknown apiKeys gets 429 with Retry-After, and a known key still works afterwards elsewhere", async () => {
    const [collection] = await collectionsOn(sim, 56);
    const statuses: number[] = [];
    let last = await postJson(sim, "/api/v2/item/new?apiKey=guess-0", mintBody(sim, collection!, 56));
    for (let i = 1; i <= 100; i += 1) {
      statuses.push(last.status);
      last = await postJson(sim, `/api/v2/item/new?apiKey=guess-${i}`, mintBody(sim, collection!, 56));
    }
    expect(new Set(statuses)).toEqual(new Set([401]));
    expect(last.status).toBe(429);
    expect(last.body.error).toBe("TOO_MANY_REQUESTS");
    expect(Number(last.headers.get("retry-after"))).toBeGreaterThan(0);
    expect((await call(sim, "/api/v2/collection")).status).toBe(200);
  });
});
