import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import Koa from "koa";
import { afterAll, beforeAll, expect, it } from "vitest";
import { RequestLog } from "../../src/control/request-log.ts";
import { apiError, ERRORS } from "../../src/core/errors.ts";
import { errorExit } from "../../src/http/error-exit.ts";

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
