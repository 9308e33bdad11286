import { spawn, type ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import { createServer } from "node:net";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createWalletClient, encodeFunctionData, http, type Address } from "viem";
import { demoWorld } from "../../src/scenario/world.ts";
import type { Simulator } from "../../src/simulator.ts";
import { call, DEMO_KEYS, demoAccount, mintBody, postJson, startTestSimulator } from "../harness.ts";

// The simulator on a node it did not start: anvil (from the npm package's binary) as chain 56,
// chain 137 in process. The demo world replays onto anvil; the API mints there; a transfer sent
// to anvil directly, and a revert done there, show in the API within the poll interval.

const ANVIL = "node_modules/@foundry-rs/anvil-linux-amd64/bin/anvil";
const POLL_MS = 200;

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, "127.0.0.1", () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

async function rpc(url: string, method: string, params: unknown[] = []): Promise<any> {
  const response = await fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }) });
  return ((await response.json()) as { result: unknown }).result;
}

describe.skipIf(!existsSync(ANVIL))("on anvil (--rpc-url)", () => {
  let anvil: ChildProcess;
  let anvilUrl: string;
  let sim: Simulator;
  const world = demoWorld();

  beforeAll(async () => {
    const port = await freePort();
    anvilUrl = `http://127.0.0.1:${port}`;
    const genesis = Math.floor(world.genesisTime!.getTime() / 1000);
    anvil = spawn(ANVIL, ["--port", String(port), "--chain-id", "56", "--timestamp", String(genesis), "--silent"], { stdio: "ignore" });
    for (let tries = 0; tries < 100 && !(await rpc(anvilUrl, "eth_chainId").catch(() => undefined)); tries++) await new Promise((r) => setTimeout(r, 100));
    sim = await startTestSimulator(world, { nodeUrls: [anvilUrl], pollIntervalMs: POLL_MS });
  }, 60_000);
  afterAll(async () => {
    await sim?.close();
    anvil?.kill("SIGKILL");
  });

  const settle = () => new Promise((resolve) => setTimeout(resolve, POLL_MS * 3));

  it("replays the world onto anvil and answers the same shapes as in process", async () => {
    const { body } = await call(sim, "/api/v2/collection?chainId=56");
    expect(body.count).toBe(3);
    expect(Number(await rpc(anvilUrl, "eth_blockNumber"))).toBeGreaterThan(10);
    const [first] = body.collections;
    expect((await call(sim, `/api/v2/collection/${first.address}`)).status).toBe(200);
    expect((await call(sim, "/api/v2/collection?chainId=137")).body.count).toBe(2);
  });

  it("mints through the API on anvil, and shows a transfer sent to anvil directly, then its revert", async () => {
    const { body } = await call(sim, "/api/v2/collection?chainId=56");
    const collection = body.collections[0].address as Address;
    const minted = await postJson(sim, `/api/v2/item/new?apiKey=${DEMO_KEYS.studio}`, mintBody(sim, collection, 56, { initialSupply: 3 }));
    expect(minted.status).toBe(200);
    const tokenId = minted.body.tokenIds[0];
    const receipt = await rpc(anvilUrl, "eth_getTransactionReceipt", [minted.body.txHash]);
    expect(receipt.status).toBe("0x1");

    const snapshot = await rpc(anvilUrl, "evm_snapshot");
    const studio = demoAccount(sim, "studio").wallet;
    const arcade = demoAccount(sim, "arcade").wallet;
    const wallet = createWalletClient({ transport: http(anvilUrl), account: studio });
    const abi = sim.chains.get(56)!.abis.collection;
    await wallet.sendTransaction({ chain: null, to: collection, data: encodeFunctionData({ abi, functionName: "safeTransferFrom", args: [studio, arcade, BigInt(tokenId), 1n, "0x"] }) });
    await settle();
    const after = await call(sim, `/api/v2/item/events/${collection}/${tokenId}`);
    expect(after.body.events.map((e: { event: string }) => e.event)).toEqual(["TransferSingle", "TransferSingle"]);

    expect(await rpc(anvilUrl, "evm_revert", [snapshot])).toBe(true);
    await settle();
    expect((await call(sim, `/api/v2/item/events/${collection}/${tokenId}`)).body.events).toHaveLength(1);
  });

  it("answers 503 CHAIN_UNAVAILABLE for chain 56 when anvil goes away, and still serves chain 137", async () => {
    anvil.kill("SIGKILL");
    await settle();
    const down = await call(sim, "/api/v2/collection?chainId=56");
    expect(down.status).toBe(503);
    expect(down.body.error).toBe("CHAIN_UNAVAILABLE");
    const other = await call(sim, "/api/v2/collection?chainId=137");
    expect(other.status).toBe(200);
    expect(other.body.count).toBe(2);
    expect(down.body.errors[0]).toMatch(/^chain 56: /);
  });
});
