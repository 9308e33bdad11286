import { describe, expect, it } from "vitest";
import { buildOpenApiDocument, openApiPath } from "../../src/openapi/document.ts";
import {
  applyScenario,
  CONTROL_OPERATIONS,
  grantMinterRole,
  revokeMinterRole,
} from "../../src/schemas/control-operations.ts";
import { demoWorld } from "../../src/scenario/worlds.ts";
import { call, collectionsOn, expectErrorBody, mintItem, postJson, sendRaw, startTestSimulator } from "../harness.ts";

// Who may call the control API: on loopback by default, elsewhere only with the admin token; never
// from a foreign browser origin; and the four /api/v2 endpoints never need the token.

describe("who may call it", () => {
  it("off a loopback host without a token it is off; with a token it needs it; the API is never affected", async () => {
    const open = await startTestSimulator(demoWorld(), { host: "0.0.0.0" });
    const guarded = await startTestSimulator(demoWorld(), { host: "0.0.0.0", adminToken: "s3cret" });
    const document = buildOpenApiDocument() as any;
    try {
      // Every control operation: its guard's 401 and 403 answered and documented.
      for (const operation of CONTROL_OPERATIONS) {
        const path = operation.path
          .replace(":address", "0x0000000000000000000000000000000000000001")
          .replace(/:\w+/g, "x");
        const method = operation.method.toUpperCase();
        const documented = Object.keys(document.paths[openApiPath(operation.path)][operation.method].responses);
        const served = [
          "401",
          "403",
          "404",
          "415",
          "503",
          "400",
          "408",
          "417",
          "431",
          ...(method === "POST" ? ["413"] : []),
        ];
        for (const status of served)
          expect(documented, `${method} ${operation.path} documents ${status}`).toContain(status);
        const plain = await sendRaw(`${guarded.url}${path}`, {
          method,
          headers: { authorization: "Bearer s3cret", "content-type": "text/plain", "content-length": "5" },
          body: "hello",
        });
        expect(plain.status, `${method} ${path} with a text/plain body`).toBe(415);
        expectErrorBody(plain.body, "UNSUPPORTED_MEDIA_TYPE");
        const expecting = await sendRaw(`${guarded.url}${path}`, {
          method,
          headers: { authorization: "Bearer s3cret", expect: "foo" },
        });
        expect(expecting.status, `${method} ${path} with Expect: foo`).toBe(417);
        if (method === "POST") {
          // A fragment may be as large as a world: its route reads more.
          const size = path === applyScenario.path ? 10 * 1024 * 1024 + 1 : 200_000;
          const large = await call(guarded, path, {
            method,
            headers: { authorization: "Bearer s3cret", "content-type": "application/json" },
            body: JSON.stringify({ padding: "x".repeat(size) }),
          });
          expect(large.status, `${method} ${path} with a large body`).toBe(413);
        }
        const withoutToken = await call(guarded, path, { method });
        expect(withoutToken.status, `${method} ${path} without the token`).toBe(401);
        expectErrorBody(withoutToken.body, "UNAUTHORIZED");
        const wrongToken = await call(guarded, path, { method, headers: { authorization: "Bearer s3creT" } });
        expect(wrongToken.status, `${method} ${path} with a wrong token`).toBe(401);
        const foreign = await call(guarded, path, {
          method,
          headers: { authorization: "Bearer s3cret", origin: "https://evil.example" },
        });
        expect(foreign.status, `${method} ${path} from a foreign origin`).toBe(403);
        expectErrorBody(foreign.body, "FORBIDDEN");
      }

      const off = await call(open, "/_sim/time");
      expect(off.status).toBe(404);
      expect(off.body.errors[0]).toMatch(/--admin-token/);
      expect((await call(open, "/api/v2/collection")).status).toBe(200);
      expect((await call(guarded, "/_sim/time")).status).toBe(401);
      expect((await call(guarded, "/_sim/time", { headers: { authorization: "Bearer s3cret" } })).status).toBe(200);
      expect(
        (await call(guarded, "/_sim/time", { headers: { authorization: "bearer s3cret" } })).status,
        "the scheme in any case",
      ).toBe(200);
      expect((await call(guarded, "/api/v2/collection")).status).toBe(200);
      // A mint needs no admin token either.
      const [collection] = await collectionsOn(guarded, 56);
      const minted = await mintItem(guarded, { collection: collection!, chainId: 56 });
      expect(minted.status, JSON.stringify(minted.body)).toBe(200);
      const foreign = await call(guarded, "/_sim/time", {
        headers: { authorization: "Bearer s3cret", origin: "https://evil.example" },
      });
      expect(foreign.status).toBe(403);
    } finally {
      await Promise.all([open.close(), guarded.close()]);
    }
  });
});

describe("the Host it is called under", () => {
  it("without the token: reads and writes alike only under a loopback name, an IP address or an allowed host (no DNS rebinding); the dashboard still works", async () => {
    const sim = await startTestSimulator(demoWorld(), { rpcAllowedHosts: ["sim.lan"] });
    try {
      for (const [method, path] of [
        ["GET", "/_sim/requests"],
        ["GET", "/_sim/time"],
        ["POST", "/_sim/snapshots"],
        ["DELETE", "/_sim/faults"],
      ] as const) {
        const rebound = await sendRaw(`${sim.url}${path}`, { method, headers: { host: "evil.example:3000" } });
        expect(rebound.status, `${method} ${path} under a foreign Host`).toBe(403);
        expectErrorBody(rebound.body, "FORBIDDEN");
        expect(rebound.body.errors[0]).toMatch(/Host 'evil\.example' is not allowed/);
        for (const host of ["localhost:3000", "127.0.0.1", "192.168.1.20:3000", "sim.lan"]) {
          expect(
            (await sendRaw(`${sim.url}${path}`, { method, headers: { host } })).status,
            `${method} ${path} under ${host}`,
          ).toBe(200);
        }
      }
      const dashboard = await fetch(`${sim.url}/`);
      expect(dashboard.status).toBe(200);
      expect(
        (await call(sim, "/_sim/time", { headers: { origin: sim.url } })).status,
        "the dashboard's own calls",
      ).toBe(200);
    } finally {
      await sim.close();
    }
  });

  it("with the token required: any Host, since no page can know the token", async () => {
    const sim = await startTestSimulator(demoWorld(), { host: "0.0.0.0", adminToken: "s3cret" });
    try {
      for (const [method, path] of [
        ["GET", "/_sim/requests"],
        ["POST", "/_sim/snapshots"],
      ] as const) {
        expect(
          (
            await sendRaw(`${sim.url}${path}`, {
              method,
              headers: { host: "sim.example:3000", authorization: "Bearer s3cret" },
            })
          ).status,
          `${method} ${path}`,
        ).toBe(200);
        expect(
          (await sendRaw(`${sim.url}${path}`, { method, headers: { host: "sim.example:3000" } })).status,
          `${method} ${path} without the token`,
        ).toBe(401);
      }
    } finally {
      await sim.close();
    }
  });
});

describe("the body", () => {
  it("must be JSON when there is one; a POST without a body needs no content-type", async () => {
    const sim = await startTestSimulator(demoWorld());
    try {
      const before = (await call(sim, "/_sim/faults")).body;
      for (const [path, headers, body] of [
        ["/_sim/snapshots", { "content-type": "text/plain" }, "hello"],
        [
          "/_sim/faults",
          { "content-type": "text/plain" },
          JSON.stringify({ match: { path: "/api/v2/**" }, effect: { status: 503 } }),
        ],
        ["/_sim/faults", { "content-type": "application/x-www-form-urlencoded" }, "match=x"],
        ["/_sim/api-keys", {}, JSON.stringify({ name: "no-type" })],
      ] as const) {
        const refused = await sendRaw(`${sim.url}${path}`, {
          method: "POST",
          headers: { ...headers, ...(headers["content-type"] ? {} : { "content-length": String(body.length) }) },
          body,
        });
        expect(refused.status, `${path} with ${JSON.stringify(headers)}`).toBe(415);
        expectErrorBody(refused.body, "UNSUPPORTED_MEDIA_TYPE");
      }
      expect((await call(sim, "/_sim/faults")).body).toEqual(before);
      expect((await sendRaw(`${sim.url}/_sim/snapshots`, { method: "POST" })).status, "a bodiless POST").toBe(200);
      expect((await call(sim, "/_sim/reset", { method: "POST" })).status, "a bodiless POST by fetch").toBe(200);
      expect((await postJson(sim, "/_sim/snapshots", {})).status, "a JSON body").toBe(200);
    } finally {
      await sim.close();
    }
  });
});

describe("the admin token", () => {
  it("the OpenAPI document names the 422 a grant or revoke can raise", () => {
    expect(grantMinterRole.errors.map((error) => error.status)).toContain(422);
    expect(revokeMinterRole.errors.map((error) => error.status)).toContain(422);
    const { paths } = buildOpenApiDocument() as any;
    expect(Object.keys(paths["/_sim/collections/{address}/minters"].post.responses)).toContain("422");
    expect(Object.keys(paths["/_sim/collections/{address}/minters/{apiKey}"].delete.responses)).toContain("422");
  });
});
