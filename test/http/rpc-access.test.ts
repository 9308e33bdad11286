import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readOptions } from "../../src/cli/options.ts";
import { MAX_BATCH_CALLS } from "../../src/http/rpc-server.ts";
import type { Simulator } from "../../src/simulator/simulator.ts";
import { RPC_ON_FREE_PORTS, sendRaw, startTestSimulator } from "../harness.ts";

// The JSON-RPC port can send transactions as every developer wallet, so a web page the
// developer has open must not reach it: not by its own origin, not with a text/plain "simple"
// request, not by renaming the host (DNS rebinding); and off loopback not without the token.

function send(url: string, body: string, headers: Record<string, string> = {}, method = "POST") {
  return sendRaw(url, { method, headers: { "content-type": "application/json", ...headers }, body });
}

const call = (method: string, params: unknown[] = []) => JSON.stringify({ jsonrpc: "2.0", id: 1, method, params });
const MINE = call("evm_mine");

let sim: Simulator;
let url: string;
const blockNumber = async () => Number((await send(url, call("eth_blockNumber"))).body.result);
beforeAll(async () => {
  sim = await startTestSimulator(undefined, {
    ...RPC_ON_FREE_PORTS,
  });
  url = sim.rpcUrls.get(56)!;
});
afterAll(() => sim?.close());

describe("a loopback JSON-RPC port", () => {
  it.each([
    ["a foreign Origin", { origin: "https://evil.example" }, 403, /Origin 'https:\/\/evil\.example' is not allowed/],
    ["a text/plain body (a CORS simple request)", { "content-type": "text/plain" }, 415, /application\/json/],
    ["a foreign Host (DNS rebinding)", { host: "evil.example:8545" }, 403, /Host 'evil\.example' is not allowed/],
  ])("refuses %s before running anything", async (_what, headers, status, message) => {
    const before = await blockNumber();
    const answer = await send(url, MINE, headers as Record<string, string>);
    expect(answer.status).toBe(status);
    expect(answer.body).toMatchObject({
      jsonrpc: "2.0",
      id: null,
      error: { code: -32600, message: expect.stringMatching(message) },
    });
    expect(answer.headers.get("access-control-allow-origin")).toBeNull();
    expect(await blockNumber()).toBe(before);
  });

  it("serves a dApp on another localhost port: preflight and call, its origin named back", async () => {
    const origin = "http://localhost:5173";
    const preflight = await send(url, "", { origin, "access-control-request-method": "POST" }, "OPTIONS");
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get("access-control-allow-origin")).toBe(origin);
    const answer = await send(url, call("eth_chainId"), { origin });
    expect(answer).toMatchObject({ status: 200, body: { result: "0x38" } });
    expect(answer.headers.get("access-control-allow-origin")).toBe(origin);
  });

  it(`answers a batch of more than ${MAX_BATCH_CALLS} calls with one JSON-RPC error, running none`, async () => {
    const before = await blockNumber();
    const batch = JSON.stringify(
      Array.from({ length: MAX_BATCH_CALLS + 1 }, (_, i) => ({
        jsonrpc: "2.0",
        id: i,
        method: "evm_mine",
        params: [],
      })),
    );
    const answer = await send(url, batch);
    expect(answer.body).toMatchObject({
      error: { code: -32600, message: expect.stringContaining(`over the limit of ${MAX_BATCH_CALLS}`) },
    });
    expect(await blockNumber()).toBe(before);
  });
});

describe("off loopback", () => {
  it("--host alone leaves the JSON-RPC ports on loopback", () => {
    expect(readOptions(["--host", "0.0.0.0"], {}).rpcHost).toBe("127.0.0.1");
  });

  it("refuses to start without a token", async () => {
    await expect(
      startTestSimulator(undefined, {
        serveRpc: true,
        rpcHost: "0.0.0.0",
        chains: [
          { chainId: 56, rpcPort: 0 },
          { chainId: 137, rpcPort: 0 },
        ],
      }),
    ).rejects.toThrow(/set --admin-token/);
  });

  it("needs the bearer token on every call", async () => {
    const open = await startTestSimulator(undefined, {
      serveRpc: true,
      rpcHost: "0.0.0.0",
      adminToken: "s3cret",
      chains: [
        { chainId: 56, rpcPort: 0 },
        { chainId: 137, rpcPort: 0 },
      ],
    });
    try {
      const rpc = open.rpcUrls.get(56)!;
      expect(rpc).toMatch(/^http:\/\/localhost:\d+$/);
      expect((await send(rpc, call("eth_chainId"))).status).toBe(401);
      expect((await send(rpc, call("eth_chainId"), { authorization: "Bearer wrong" })).status).toBe(401);
      expect(await send(rpc, call("eth_chainId"), { authorization: "Bearer s3cret" })).toMatchObject({
        status: 200,
        body: { result: "0x38" },
      });
      // Reached by its address or a name on the network: the token, which no page can know, stands for a known Host.
      for (const host of ["192.168.1.20:8545", "sim.lan"]) {
        expect(await send(rpc, call("eth_chainId"), { host, authorization: "Bearer s3cret" }), host).toMatchObject({
          status: 200,
          body: { result: "0x38" },
        });
        expect((await send(rpc, call("eth_chainId"), { host })).status, `${host} without the token`).toBe(401);
      }
    } finally {
      await open.close();
    }
  });
});

describe("--cors and --rpc-cors", () => {
  it("widen the loopback origins: both they and the given origin get through, a third does not", async () => {
    const given = "https://app.example";
    const widened = await startTestSimulator(undefined, {
      serveRpc: true,
      apiCors: [given],
      rpcCors: [given],
      chains: [
        { chainId: 56, rpcPort: 0 },
        { chainId: 137, rpcPort: 0 },
      ],
    });
    try {
      const rpc = widened.rpcUrls.get(56)!;
      for (const origin of ["http://localhost:5173", given]) {
        expect((await send(rpc, call("eth_chainId"), { origin })).status, `JSON-RPC from ${origin}`).toBe(200);
        expect(
          (await sendRaw(`${widened.url}/_sim/faults`, { method: "DELETE", headers: { origin } })).status,
          `control API from ${origin}`,
        ).toBe(200);
      }
      expect((await send(rpc, call("eth_chainId"), { origin: "https://evil.example" })).status).toBe(403);
      expect(
        (await sendRaw(`${widened.url}/_sim/faults`, { method: "DELETE", headers: { origin: "https://evil.example" } }))
          .status,
      ).toBe(403);
    } finally {
      await widened.close();
    }
  });
});
