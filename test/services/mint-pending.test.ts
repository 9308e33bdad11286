import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPublicClient, http, parseEventLogs, type Address, type Hex } from "viem";
import { demoWorld } from "../../src/scenario/worlds.ts";
import type { Simulator } from "../../src/simulator/simulator.ts";
import {
  type Answer,
  call,
  collectionsOn,
  demoAccount,
  expectErrorBody,
  mintItem,
  RPC_ON_FREE_PORTS,
  startTestSimulator,
} from "../harness.ts";
import { until } from "../eventually.ts";
import { rpc as rpcCall } from "../rpc.ts";

// A mint whose block does not come (automine switched off over JSON-RPC, as a user stalls a chain)
// must neither hang nor lie: 504 MINT_PENDING with its hash while the transaction waits in the pool,
// 409 MINT_DROPPED once the chain has dropped it (evm_revert), and no item left behind for it.

const MINT_TIMEOUT_MS = 1_000;
/** How long the test waits for the 504 at most: generous, but far below a hang. */
const ANSWER_BOUND_MS = 15 * MINT_TIMEOUT_MS;

let sim: Simulator;
let collection: Address;
let rpcUrl: string;

beforeAll(async () => {
  sim = await startTestSimulator(demoWorld(), {
    mintTimeoutMs: MINT_TIMEOUT_MS,
    ...RPC_ON_FREE_PORTS,
  });
  [collection] = (await collectionsOn(sim, 137)) as [Address];
  rpcUrl = sim.rpcUrls.get(137)!;
});
afterAll(() => sim?.close());

/** A call to chain 137's JSON-RPC port, as a wallet or a script sends it. */
const rpc = (method: string, params: unknown[] = []) => rpcCall(rpcUrl, method, params);

function mint(name: string): Promise<Answer> {
  return mintItem(sim, {
    collection,
    chainId: 137,
    item: { name },
    init: { signal: AbortSignal.timeout(ANSWER_BOUND_MS) },
  });
}

/** The names of the collection's items, as the control API lists them from the read models. */
async function itemNames(): Promise<string[]> {
  const answer = await call(sim, `/_sim/collections/${collection}/items?chainId=137`);
  expect(answer.status).toBe(200);
  return answer.body.items.map((item: { name: string }) => item.name);
}

/** Automine off over JSON-RPC for the duration of `run`; on again afterwards whatever happened. */
async function stalled<T>(run: () => Promise<T>): Promise<T> {
  await rpc("evm_setAutomine", [false]);
  try {
    return await run();
  } finally {
    await rpc("evm_setAutomine", [true]);
  }
}

describe("a chain stalled over JSON-RPC", () => {
  it("answers 504 MINT_PENDING with the hash within the bound, and the item appears complete once mined", async () => {
    const txHash = await stalled(async () => {
      const pending = await mint("Late Lantern");
      expect(pending.status).toBe(504);
      expectErrorBody(pending.body, "MINT_PENDING");
      expect(pending.body.txHash).toMatch(/^0x[0-9a-f]{64}$/);
      expect(await rpc("eth_getTransactionByHash", [pending.body.txHash])).toMatchObject({
        hash: pending.body.txHash,
        blockNumber: null,
      });
      await rpc("evm_mine");
      return pending.body.txHash as Hex;
    });

    const receipt = await createPublicClient({ transport: http(rpcUrl) }).getTransactionReceipt({ hash: txHash });
    expect(receipt.status).toBe("success");
    const [created] = parseEventLogs({
      abi: sim.chains.get(137)!.abis.collection,
      eventName: "ItemCreated",
      logs: receipt.logs,
    });
    const tokenId = created!.args.tokenId;
    const history = await call(sim, `/api/v2/item/events/${collection}/${tokenId}?chainId=137`);
    expect(history.status).toBe(200);
    expect(history.body.events.map((event: { transactionHash: Hex }) => event.transactionHash)).toEqual([txHash]);
    const { slug } = (await call(sim, `/api/v2/collection/${collection}`)).body.collection;
    const metadata = await call(sim, `/metadata/137/${slug}/${tokenId}`);
    expect(metadata.status).toBe(200);
    expect(metadata.body.name).toBe("Late Lantern");
  });

  it("a mint rewound away while it waits (snapshot, automine off, mint, evm_revert) answers 409 MINT_DROPPED and leaves no item", async () => {
    const wallet = demoAccount(sim, "studio").wallet;
    const snapshot = await rpc("evm_snapshot");
    const answer = await stalled(async () => {
      const nonce = await rpc("eth_getTransactionCount", [wallet, "latest"]);
      const waiting = mint("Rewound Rune");
      await until(
        "the mint to reach the pool",
        async () => (await rpc("eth_getTransactionCount", [wallet, "pending"])) !== nonce,
      );
      expect(await rpc("evm_revert", [snapshot])).toBe(true);
      return waiting;
    });
    expect(answer.status).toBe(409);
    expectErrorBody(answer.body, "MINT_DROPPED");
    expect(await rpc("eth_getTransactionByHash", [answer.body.txHash])).toBeNull();
    expect((await mint("After The Rewind")).status).toBe(200);
    expect(await itemNames()).toContain("After The Rewind");
    expect(await itemNames()).not.toContain("Rewound Rune");
  });

  it("a mint answered 504 and then rewound away never appears", async () => {
    const snapshot = await rpc("evm_snapshot");
    const pending = await stalled(async () => {
      const answer = await mint("Orphan Orb");
      expect(answer.status).toBe(504);
      expect(await rpc("evm_revert", [snapshot])).toBe(true);
      return answer;
    });
    expect(await rpc("eth_getTransactionByHash", [pending.body.txHash])).toBeNull();
    await rpc("evm_mine");
    expect(await itemNames()).not.toContain("Orphan Orb");
  });
});
