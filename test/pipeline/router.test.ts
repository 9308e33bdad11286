import { request as httpRequest, createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import Router from "@koa/router";
import fc from "fast-check";
import Koa from "koa";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RequestLog } from "../../src/control/request-log.ts";
import { ApiError } from "../../src/core/errors.ts";
import { methodRefusals } from "../../src/http/app.ts";
import { errorExit } from "../../src/http/error-exit.ts";
import { API_SPACE, Pipeline, type PipelineDeps } from "../../src/pipeline/pipeline.ts";
import { SERVED_OPERATIONS } from "../../src/schemas/operations.ts";

// The pipeline's router against @koa/router serving the same route table as the server served it before the
// pipeline routed (each operation at its method and path, then its `allowedMethods()` refusals as the server's, behind
// the JSON error exit): for any method and path, the same operation with the same parameters, or the same refusal with
// the same `Allow`.

const { router } = new Pipeline({} as PipelineDeps);
let server: Server;
let port: number;

beforeAll(async () => {
  const app = new Koa();
  const koaRouter = new Router();
  for (const operation of SERVED_OPERATIONS)
    koaRouter[operation.method](operation.path, (ctx) => {
      ctx.body = { operationId: operation.operationId, params: { ...ctx.params } };
    });
  app.use(errorExit(new RequestLog(), () => undefined));
  app.use(koaRouter.routes());
  app.use(methodRefusals(koaRouter.allowedMethods()));
  server = createServer(app.callback()).listen(0, "127.0.0.1");
  await new Promise((resolve) => server.once("listening", resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(() => server?.close());

interface Outcome {
  status: number;
  body: unknown;
  allow?: string;
}

function koa(method: string, path: string): Promise<Outcome> {
  return new Promise((resolve, reject) => {
    const sent = httpRequest({ host: "127.0.0.1", port, method, path }, (response) => {
      let text = "";
      response.on("data", (chunk: Buffer) => (text += chunk.toString()));
      response.on("end", () =>
        resolve({
          status: response.statusCode!,
          body: text === "" ? "" : JSON.parse(text),
          ...(response.headers.allow === undefined ? {} : { allow: response.headers.allow }),
        }),
      );
    });
    sent.on("error", reject);
    sent.end();
  });
}

function piped(method: string, path: string): Outcome | undefined {
  try {
    const routed = router.route(method, path);
    if (!routed) return undefined;
    if ("allow" in routed) return { status: 200, body: "", allow: routed.allow.join(", ") };
    return { status: 200, body: { operationId: routed.operation.operationId, params: routed.params } };
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    return { status: error.status, body: error.body, ...error.headers };
  }
}

const METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", "PROPFIND", "MKCOL"];

/** A path near one the table serves: its parameters filled with text that may need encoding, in any case, etc. */
const nearPath = fc
  .record({
    operation: fc.constantFrom(...SERVED_OPERATIONS),
    values: fc.array(
      fc.oneof(
        fc.constantFrom("0xAbC", "56", "my-slug", "%41b", "%zz", "%2F", "a.png", "", "caf%C3%A9", "a b"),
        fc.stringMatching(/^[A-Za-z0-9._~-]{1,12}$/),
      ),
      { minLength: 3, maxLength: 3 },
    ),
    upper: fc.boolean(),
    trailing: fc.constantFrom("", "/", "//", "/x"),
  })
  .map(({ operation, values, upper, trailing }) => {
    let i = 0;
    const path = operation.path.replace(/:[A-Za-z]+/g, () => values[i++]!.replaceAll(" ", "%20")) + trailing;
    return upper ? path.toUpperCase() : path;
  });

const strayPath = fc.constantFrom(
  "/api/v2/",
  "/api/v2/no-such-route",
  "/api/v2/collection/a/b",
  "/api/v2/item/new/x",
  "/API/V2/COLLECTION",
  "/api/v2/item/events/0xab",
  "/metadata/56/slug",
  "/images/seed.gif",
  "/images/.png",
  "/elsewhere",
);

describe("the pipeline's router", () => {
  it(`routes within ${API_SPACE} and the table's paths as @koa/router does`, async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...METHODS), fc.oneof(nearPath, strayPath), async (method, path) => {
        const expected = await koa(method, path);
        const answered = piped(method, path);
        if (answered === undefined) {
          // Not the API's: the server's own router takes it on (a path of no route is 404 there).
          expect(path.startsWith(API_SPACE)).toBe(false);
          expect([404, 405]).toContain(expected.status);
          return;
        }
        // A HEAD answer has no body.
        expect(answered).toEqual(method === "HEAD" ? { ...expected, body: answered.body } : expected);
        if (answered.status === 405) expect(answered.allow).toBeDefined();
      }),
      { numRuns: 400 },
    );
  });

  it("answers every operation of the table at its own path and method (the check can fail)", () => {
    for (const operation of SERVED_OPERATIONS) {
      const path = operation.path.replace(/:[A-Za-z]+/g, "x");
      expect(piped(operation.method.toUpperCase(), path)?.body).toMatchObject({ operationId: operation.operationId });
    }
    expect(piped("GET", "/api/v2/collection/a/b")?.status).toBe(404);
  });
});
