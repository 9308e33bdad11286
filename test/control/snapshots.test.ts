import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SNAPSHOT_LIMIT } from "../../src/control/snapshots.ts";
import { demoWorld } from "../../src/scenario/worlds.ts";
import type { Simulator } from "../../src/simulator/simulator.ts";
import {
  chainHeads,
  collectionsOn,
  expectErrorBody,
  mintItem,
  postJson,
  RPC_ON_FREE_PORTS,
  startTestSimulator,
} from "../harness.ts";
import { rpc as rpcCall } from "../rpc.ts";

// Snapshots at their limits: how many are kept, and one a chain dropped behind the simulator's back.

let sim: Simulator;
beforeAll(async () => {
  sim = await startTestSimulator(demoWorld());
});
afterAll(() => sim?.close());

describe("the snapshot bound", () => {
  it(`keeps at most ${SNAPSHOT_LIMIT} snapshots: one more is refused with 409, and a revert to an early one makes room`, async () => {
    const ids: string[] = [];
    for (let i = 0; i < SNAPSHOT_LIMIT; i += 1) ids.push((await postJson(sim, "/_sim/snapshots", {})).body.id);
    expect(new Set(ids).size).toBe(SNAPSHOT_LIMIT);
    const refused = await postJson(sim, "/_sim/snapshots", {});
    expect(refused.status).toBe(409);
    expectErrorBody(refused.body, "CONFLICT");
    expect((await postJson(sim, `/_sim/snapshots/${ids[9]}/revert`, {})).status).toBe(200);
    expectErrorBody((await postJson(sim, `/_sim/snapshots/${ids[10]}/revert`, {})).body, "NOT_FOUND");
    expect((await postJson(sim, "/_sim/snapshots", {})).status).toBe(200);
    expect((await postJson(sim, "/_sim/reset", {})).status).toBe(200);
  }, 180_000);
});

describe("a snapshot the chain dropped", () => {
  it("an evm_revert over JSON-RPC to before a snapshot: its revert answers 409 and moves no chain, then it is forgotten (404)", async () => {
    const withRpc = await startTestSimulator(demoWorld(), {
      ...RPC_ON_FREE_PORTS,
    });
    try {
      const rpc = (method: string, params: unknown[] = []) => rpcCall(withRpc.rpcUrls.get(56)!, method, params);
      const outside = await rpc("evm_snapshot");
      const { id } = (await postJson(withRpc, "/_sim/snapshots", {})).body;
      const [collection] = await collectionsOn(withRpc, 137);
      expect((await mintItem(withRpc, { collection: collection!, chainId: 137 })).status).toBe(200);
      expect(await rpc("evm_revert", [outside])).toBe(true);
      const heads = await chainHeads(withRpc);

      const refused = await postJson(withRpc, `/_sim/snapshots/${id}/revert`, {});
      expect(refused.status).toBe(409);
      expectErrorBody(refused.body, "CONFLICT");
      expect(refused.body.errors[0]).toMatch(/chain 56 went back/);
      expect(await chainHeads(withRpc)).toEqual(heads);
      expectErrorBody((await postJson(withRpc, `/_sim/snapshots/${id}/revert`, {})).body, "NOT_FOUND");
      // A snapshot taken after the outside revert is whole.
      const { id: later } = (await postJson(withRpc, "/_sim/snapshots", {})).body;
      expect((await postJson(withRpc, `/_sim/snapshots/${later}/revert`, {})).status).toBe(200);
    } finally {
      await withRpc.close();
    }
  });
});
