import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { encodeFunctionData, type Address, type Hex } from "viem";
import { indexedEventsAbi } from "../../src/indexer/decode.ts";
import { ChainIndexer } from "../../src/indexer/indexer.ts";
import { chainLogSource } from "../../src/indexer/log-source.ts";
import type { ReadModels } from "../../src/indexer/models.ts";
import type { SimChain } from "../../src/chain/sim-chain.ts";
import type { Simulator } from "../../src/simulator/simulator.ts";
import { demoWorld } from "../../src/scenario/worlds.ts";
import { call, collectionsOn, DEMO_KEYS, demoAccount, mintBody, postJson, startTestSimulator } from "../harness.ts";

// Whatever changes the chain from outside (evm_revert to a snapshot, time jumps, transfers,
// balances and blocks, all sent to the chain's JSON-RPC port as a wallet or script would), the
// live read models must equal an index built afresh from genesis.

let sim: Simulator;
let chain: SimChain;
let collection: Address;
const MINT = `/api/v2/item/new?apiKey=${DEMO_KEYS.studio}`;

beforeAll(async () => {
  sim = await startTestSimulator(demoWorld(), {
    serveRpc: true,
    chains: [
      { chainId: 56, rpcPort: 0 },
      { chainId: 137, rpcPort: 0 },
    ],
  });
  chain = sim.chains.get(56)!;
  [collection] = (await collectionsOn(sim, 56)) as [Address];
});
afterAll(() => sim?.close());

function withoutVersion({ version: _version, ...rest }: ReadModels) {
  return rest;
}

async function expectIndexEqualsChain(): Promise<void> {
  await chain.sync();
  const fresh = new ChainIndexer(
    chainLogSource(chain.publicClient, indexedEventsAbi(chain.abis)),
    (await chain.read()).facts,
  );
  await fresh.sync();
  expect(withoutVersion(await chain.read())).toEqual(withoutVersion(fresh.models));
}

async function mint(name: string): Promise<{ txHash: Hex; tokenIds: number[] }> {
  const { status, body } = await postJson(sim, MINT, mintBody(sim, collection, 56, { name, initialSupply: 2 }));
  expect(status).toBe(200);
  return body;
}

/** A call to the chain's JSON-RPC port, as a wallet or script would send it. */
async function rpc(method: string, params: unknown[] = []): Promise<unknown> {
  const response = await fetch(sim.rpcUrls.get(56)!, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
  });
  const answer = (await response.json()) as { result?: unknown; error?: unknown };
  if (answer.error) throw new Error(`${method}: ${JSON.stringify(answer.error)}`);
  return answer.result;
}

const history = (tokenId: number) => call(sim, `/api/v2/item/events/${collection}/${tokenId}?chainId=56`);

describe("a chain rewound over JSON-RPC", () => {
  it("snapshot, mint, revert, mint: the reverted mint is gone, the second is there with its own metadata", async () => {
    const snapshot = await rpc("evm_snapshot");
    const first = await mint("Reverted Sword");
    expect(await rpc("evm_revert", [snapshot])).toBe(true);
    expect((await history(first.tokenIds[0]!)).status).toBe(404);

    const second = await mint("Kept Shield");
    expect(second.tokenIds).toEqual(first.tokenIds);
    const events = (await history(second.tokenIds[0]!)).body.events;
    expect(events.map((event: { transactionHash: Hex }) => event.transactionHash)).toEqual([second.txHash]);

    const slug = (await call(sim, `/api/v2/collection/${collection}`)).body.collection.slug;
    const metadata = await call(sim, `/metadata/56/${slug}/${second.tokenIds[0]}`);
    expect(metadata.status).toBe(200);
    expect(metadata.body.name).toBe("Kept Shield");
    await expectIndexEqualsChain();
  });

  it("random mints, snapshots, reverts, time jumps, transfers, balances and blocks sent over JSON-RPC: the live index always equals a fresh one", async () => {
    const studio = demoAccount(sim, "studio").wallet;
    const arcade = demoAccount(sim, "arcade").wallet;
    const action = fc.oneof(
      fc.constant({ kind: "mint" as const }),
      fc.constant({ kind: "snapshot" as const }),
      fc.nat({ max: 5 }).map((pick) => ({ kind: "revert" as const, pick })),
      fc.integer({ min: 1, max: 3 * 86_400 }).map((seconds) => ({ kind: "time" as const, seconds })),
      fc.constant({ kind: "transfer" as const }),
      fc
        .tuple(fc.constantFrom(studio, arcade, `0x${"be".repeat(20)}`), fc.bigInt({ min: 0n, max: 10n ** 24n }))
        .map(([address, wei]) => ({ kind: "balance" as const, address, wei })),
      fc.integer({ min: 1, max: 3 }).map((blocks) => ({ kind: "mine" as const, blocks })),
    );
    const kinds = new Set<string>();
    await fc.assert(
      fc.asyncProperty(fc.array(action, { minLength: 1, maxLength: 6 }), async (actions) => {
        const snapshots: unknown[] = [];
        let lastMinted: number | undefined;
        for (const step of actions) {
          kinds.add(step.kind);
          if (step.kind === "mint") lastMinted = (await mint("Property Item")).tokenIds[0];
          if (step.kind === "snapshot") snapshots.push(await rpc("evm_snapshot"));
          if (step.kind === "revert" && snapshots.length > 0) {
            const [id] = snapshots.splice(step.pick % snapshots.length);
            expect(await rpc("evm_revert", [id])).toBe(true);
            lastMinted = undefined;
          }
          if (step.kind === "time") {
            await rpc("evm_increaseTime", [step.seconds]);
            await rpc("evm_mine");
          }
          if (step.kind === "transfer" && lastMinted !== undefined) {
            const data = encodeFunctionData({
              abi: chain.abis.collection,
              functionName: "safeTransferFrom",
              args: [studio, arcade, BigInt(lastMinted), 1n, "0x"],
            });
            await rpc("eth_sendTransaction", [{ from: studio, to: collection, data }]);
          }
          if (step.kind === "balance") await rpc("hardhat_setBalance", [step.address, `0x${step.wei.toString(16)}`]);
          if (step.kind === "mine") for (let i = 0; i < step.blocks; i += 1) await rpc("evm_mine");
          await expectIndexEqualsChain();
        }
      }),
      { numRuns: 12, seed: 17 },
    );
    expect([...kinds].sort()).toEqual(["balance", "mine", "mint", "revert", "snapshot", "time", "transfer"]);
  });
});
