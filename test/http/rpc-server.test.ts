import { afterAll, beforeAll, expect, it } from "vitest";
import { createPublicClient, createWalletClient, http, type Address } from "viem";
import { addressOf, keyFor } from "../../src/core/keys.ts";
import type { Simulator } from "../../src/simulator/simulator.ts";
import { call, RPC_ON_FREE_PORTS, startTestSimulator } from "../harness.ts";

let sim: Simulator;
beforeAll(async () => {
  sim = await startTestSimulator(undefined, {
    ...RPC_ON_FREE_PORTS,
  });
});
afterAll(() => sim?.close());

it("serves each chain as JSON-RPC, and the API follows blocks mined through it", async () => {
  const bnb = sim.chains.get(56)!;
  const rpc = http(sim.rpcUrls.get(56)!);
  const reader = createPublicClient({ transport: rpc });
  expect(await reader.getChainId()).toBe(56);
  expect(await createPublicClient({ transport: http(sim.rpcUrls.get(137)!) }).getChainId()).toBe(137);

  const [dragons] = (await call(sim, "/api/v2/collection?name=Dragon%20Riders")).body.collections;
  const before = (await call(sim, `/api/v2/collection/${dragons.address}`)).body.collection.holders;
  const alice = addressOf(keyFor("collector/alice"));
  const friend = `0x${"fe".repeat(20)}` as Address;
  // alice's key is one the chain holds, so eth_sendTransaction through the RPC port signs for her
  const wallet = createWalletClient({ transport: rpc, account: alice });
  const hash = await wallet.writeContract({
    address: dragons.address,
    abi: bnb.abis.collection,
    functionName: "safeTransferFrom",
    args: [alice, friend, 1n, 1n, "0x"],
    chain: null,
  });
  await reader.waitForTransactionReceipt({ hash });

  const { body } = await call(sim, `/api/v2/item/events/${dragons.address}/1`);
  expect(body.events[0]).toMatchObject({
    event: "TransferSingle",
    from: alice,
    to: friend,
    amount: "1",
    transactionHash: hash,
  });
  const after = (await call(sim, `/api/v2/collection/${dragons.address}`)).body.collection.holders;
  expect(after).toBe(before + 1);
});

it("answers JSON-RPC errors and batches as JSON-RPC", async () => {
  const url = sim.rpcUrls.get(56)!;
  const post = (body: string) =>
    fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body }).then((r) => r.json());
  expect(await post("{nope")).toMatchObject({ error: { code: -32700 } });
  const batch = await post(
    JSON.stringify([
      { jsonrpc: "2.0", id: 1, method: "eth_chainId", params: [] },
      { jsonrpc: "2.0", id: 2, method: "no_such_method", params: [] },
    ]),
  );
  expect(batch[0]).toEqual({ jsonrpc: "2.0", id: 1, result: "0x38" });
  expect(batch[1].error.code).toBeTypeOf("number");
});

it("answers odd bodies with JSON-RPC errors and keeps serving", async () => {
  const url = sim.rpcUrls.get(56)!;
  const post = (body: string) =>
    fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body }).then((r) => r.json());
  for (const body of ["null", "5", '"eth_chainId"', "{}", '{"method":5}', "[]"]) {
    expect(await post(body), body).toMatchObject({ jsonrpc: "2.0", id: null, error: { code: -32600 } });
  }
  const batch = await post(JSON.stringify([null, { jsonrpc: "2.0", id: 7, method: "eth_chainId" }]));
  expect(batch).toMatchObject([{ error: { code: -32600 } }, { id: 7, result: "0x38" }]);
  expect(await post(JSON.stringify({ jsonrpc: "2.0", id: 1, method: "eth_chainId" }))).toEqual({
    jsonrpc: "2.0",
    id: 1,
    result: "0x38",
  });
});
