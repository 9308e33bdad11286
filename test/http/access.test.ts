import { afterAll, beforeAll, expect, it } from "vitest";
import type { Address } from "viem";
import { createServer } from "node:net";
import type { AddressInfo } from "node:net";
import { DEFAULT_OPTIONS } from "../../src/core/config.ts";
import { chooseWorld } from "../../src/scenario/worlds.ts";
import { startSimulator } from "../../src/simulator/simulator.ts";
import type { Simulator } from "../../src/simulator/simulator.ts";
import {
  call,
  chainHeads,
  collectionsOn,
  DEMO_KEYS,
  expectErrorBody,
  mintBody,
  sendRaw,
  startDemo,
} from "../harness.ts";

// A web page the developer has open can reach the API on loopback. Reads stay open to every
// origin; a mint from a foreign origin, or under a Host only DNS rebinding would send, is refused
// before anything runs.

let sim: Simulator;
let collection: Address;
beforeAll(async () => {
  sim = await startDemo();
  [collection] = (await collectionsOn(sim, 56)) as [Address];
});
afterAll(() => sim?.close());

const MINT = `/api/v2/item/new?apiKey=${DEMO_KEYS.studio}`;
const mintWith = (headers: Record<string, string>, form = false) =>
  sendRaw(`${sim.url}${MINT}`, {
    method: "POST",
    headers: { "content-type": form ? "application/x-www-form-urlencoded" : "application/json", ...headers },
    body: form
      ? new URLSearchParams({
          ...mintBody(sim, collection, 56),
          chainId: "56",
          item: JSON.stringify({ name: "Forged", initialSupply: 1 }),
        } as Record<string, string>).toString()
      : JSON.stringify(mintBody(sim, collection, 56)),
  });

it.each([
  ["a form posted by a page on another site", { origin: "https://evil.example" }, true],
  ["JSON from a page on another site", { origin: "https://evil.example" }, false],
  ["a rebinding Host", { host: "evil.example:3000" }, false],
  ["a lookalike localhost origin", { origin: "http://localhost.evil.example:3000" }, false],
])("refuses a mint from %s with 403, changing nothing", async (_what, headers, form) => {
  const before = await chainHeads(sim);
  const answer = await mintWith(headers, form);
  expect(answer.status).toBe(403);
  expectErrorBody(answer.body, "FORBIDDEN");
  expect(await chainHeads(sim)).toEqual(before);
});

it.each([
  ["a dev server on another localhost port", { origin: "http://localhost:5173" }],
  ["127.0.0.1 under its own address", { origin: "http://127.0.0.1:8080", host: "127.0.0.1:3000" }],
  ["a LAN address as Host (no DNS name to rebind)", { host: "192.168.1.20:3000" }],
  ["a script (no Origin)", {}],
])("takes a mint from %s", async (_what, headers) => {
  const answer = await mintWith(headers);
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
});

it("answers reads to every origin", async () => {
  const answer = await call(sim, "/api/v2/collection", { headers: { origin: "https://any.example" } });
  expect(answer.status).toBe(200);
  expect(answer.headers.get("access-control-allow-origin")).toBe("*");
});

it.each([
  ["a given port", async () => freePort()],
  ["port 0", async () => 0],
])(
  "bound to a wildcard address on %s, printed URLs and every collection uri (the world's and /_sim's) say localhost",
  async (_what, portOf) => {
    const { world, options } = chooseWorld(
      { fixture: "demo", wallClock: false, chainsGiven: false },
      { ...DEFAULT_OPTIONS, host: "0.0.0.0", port: await portOf(), serveRpc: false, adminToken: "t" },
    );
    const wide = await startSimulator(world, options);
    try {
      const port = new URL(wide.url).port;
      expect(wide.url).toBe(`http://localhost:${port}`);
      const created = await call(wide, "/_sim/collections", {
        method: "POST",
        headers: { "content-type": "application/json", authorization: "Bearer t" },
        body: JSON.stringify({ chainId: 56, name: "Made Later", owner: DEMO_KEYS.studio }),
      });
      expect(created.status, JSON.stringify(created.body)).toBe(200);
      const { body } = await call(wide, "/api/v2/collection?perPage=100");
      expect(body.collections.length).toBeGreaterThan(1);
      expect(body.collections.map((c: { address: string }) => c.address)).toContain(created.body.address);
      for (const { uri } of body.collections)
        expect(uri.startsWith(`http://localhost:${port}/metadata/`), uri).toBe(true);
    } finally {
      await wide.close();
    }
  },
);

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, "0.0.0.0", () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    });
  });
}
