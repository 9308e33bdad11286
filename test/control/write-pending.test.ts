import { afterAll, beforeAll, expect, it } from "vitest";
import type { Simulator } from "../../src/simulator/simulator.ts";
import { demoWorld } from "../../src/scenario/worlds.ts";
import {
  type Answer,
  call,
  collectionsOn,
  DEMO_KEYS,
  expectErrorBody,
  mintItem,
  RPC_ON_FREE_PORTS,
  startTestSimulator,
} from "../harness.ts";
import { until } from "../eventually.ts";
import { rpc as rpcCall } from "../rpc.ts";

// A control write on a stalled chain (automine off over JSON-RPC) waits no longer than a mint does:
// 504 WRITE_PENDING with its hash, never a 500 after viem's three minutes; and once the block
// comes, the write takes effect (a collection complete with its metadata).

const TIMEOUT_MS = 1_000;
/** A hang guard on each answer, far below viem's three minutes: a write that waits for those is aborted, and fails. */
const ANSWER_BOUND_MS = 15 * TIMEOUT_MS;

let sim: Simulator;
let rpcUrl: string;

beforeAll(async () => {
  sim = await startTestSimulator(demoWorld(), {
    mintTimeoutMs: TIMEOUT_MS,
    ...RPC_ON_FREE_PORTS,
  });
  rpcUrl = sim.rpcUrls.get(56)!;
});
afterAll(() => sim?.close());

const rpc = (method: string, params: unknown[] = []) => rpcCall(rpcUrl, method, params);

function send(method: string, path: string, body?: unknown): Promise<Answer> {
  return call(sim, path, {
    method,
    headers: { "content-type": "application/json" },
    ...(body ? { body: JSON.stringify(body) } : {}),
    signal: AbortSignal.timeout(ANSWER_BOUND_MS),
  });
}

function expectPending(answer: Answer): string {
  expect(answer.status, JSON.stringify(answer.body)).toBe(504);
  expectErrorBody(answer.body, "WRITE_PENDING");
  expect(answer.body.txHash).toMatch(/^0x[0-9a-f]{64}$/);
  return answer.body.txHash;
}

it("creating a collection on a stalled chain answers 504 WRITE_PENDING in time; it lands complete once mined", async () => {
  await rpc("evm_setAutomine", [false]);
  try {
    const answer = await send("POST", "/_sim/collections", {
      chainId: 56,
      name: "Paused Two",
      owner: DEMO_KEYS.studio,
      genre: "RPG",
    });
    const txHash = expectPending(answer);
    expect(await rpc("eth_getTransactionByHash", [txHash])).toMatchObject({ blockNumber: null });
    await rpc("evm_mine");
  } finally {
    await rpc("evm_setAutomine", [true]);
  }
  const named = async () => {
    for (const address of await collectionsOn(sim, 56)) {
      const { collection } = (await call(sim, `/api/v2/collection/${address}`)).body;
      if (collection.name === "Paused Two") return collection;
    }
    return undefined;
  };
  await until("the collection's metadata", async () => (await named())?.genre === "RPG");
  expect(await named()).toMatchObject({ name: "Paused Two", genre: "RPG", slug: "paused-two" });
});

it("granting and revoking a minter role on a stalled chain answer 504 WRITE_PENDING; the role changes once mined", async () => {
  const [collection] = (await collectionsOn(sim, 56)) as [string];
  const mintAsGuest = async () =>
    (
      await mintItem(sim, {
        collection,
        chainId: 56,
        apiKey: DEMO_KEYS.guest,
        init: { signal: AbortSignal.timeout(ANSWER_BOUND_MS) },
      })
    ).status;
  const stalled = async (path: string, method: string, body?: unknown) => {
    await rpc("evm_setAutomine", [false]);
    try {
      expectPending(await send(method, path, body));
      await rpc("evm_mine");
    } finally {
      await rpc("evm_setAutomine", [true]);
    }
  };
  expect(await mintAsGuest()).toBe(403);
  await stalled(`/_sim/collections/${collection}/minters`, "POST", { apiKey: DEMO_KEYS.guest });
  expect(await mintAsGuest()).toBe(200);
  await stalled(`/_sim/collections/${collection}/minters/${DEMO_KEYS.guest}`, "DELETE");
  expect(await mintAsGuest()).toBe(403);
});
