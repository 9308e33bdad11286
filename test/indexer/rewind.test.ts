import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { encodeFunctionData, type Address, type Hex } from "viem";
import { indexedEventsAbi, chainLogSource } from "../../src/indexer/log-source.ts";
import { ChainIndexer } from "../../src/indexer/indexer.ts";
import type { ReadModels } from "../../src/indexer/models.ts";
import type { SimChain } from "../../src/chain/sim-chain.ts";
import type { Simulator } from "../../src/simulator/simulator.ts";
import { demoWorld } from "../../src/scenario/worlds.ts";
import { call, collectionsOn, demoAccount, mintItem, RPC_ON_FREE_PORTS, startTestSimulator } from "../harness.ts";
import { rpc as rpcCall } from "../rpc.ts";
import { expectModelsMatchContracts } from "../chain-oracle.ts";

// Whatever changes the chain from outside (evm_revert to a snapshot, time jumps, transfers,
// balances and blocks, all sent to the chain's JSON-RPC port as a wallet or script would), the
// live read models must equal an index built afresh from genesis.

let sim: Simulator;
let chain: SimChain;
let collection: Address;

beforeAll(async () => {
  sim = await startTestSimulator(demoWorld(), {
    ...RPC_ON_FREE_PORTS,
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

async function mint(name: string, initialSupply = 2): Promise<{ txHash: Hex; tokenIds: number[] }> {
  const { status, body } = await mintItem(sim, { collection, chainId: 56, item: { name, initialSupply } });
  expect(status).toBe(200);
  return body;
}

/** A call to the chain's JSON-RPC port, as a wallet or script would send it. */
const rpc = (method: string, params: unknown[] = []) => rpcCall(sim.rpcUrls.get(56)!, method, params);

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
    // An item the studio holds plenty of, minted before any run's snapshot, so no revert takes it back:
    // a transfer always has something to move.
    const held = (await mint("Held Stack", 1_000)).tokenIds[0]!;
    const steps = {
      mint: fc.constant({ kind: "mint" as const }),
      snapshot: fc.constant({ kind: "snapshot" as const }),
      revert: fc.nat({ max: 5 }).map((pick) => ({ kind: "revert" as const, pick })),
      time: fc.integer({ min: 1, max: 3 * 86_400 }).map((seconds) => ({ kind: "time" as const, seconds })),
      transfer: fc.constant({ kind: "transfer" as const }),
      // At least 1 ETH: the studio sends the mints and transfers that follow, and must still pay their gas.
      balance: fc
        .tuple(fc.constantFrom(studio, arcade, `0x${"be".repeat(20)}`), fc.bigInt({ min: 10n ** 18n, max: 10n ** 24n }))
        .map(([address, wei]) => ({ kind: "balance" as const, address, wei })),
      mine: fc.integer({ min: 1, max: 3 }).map((blocks) => ({ kind: "mine" as const, blocks })),
    };
    type Step = typeof steps extends Record<string, fc.Arbitrary<infer S>> ? S : never;
    // Each run: every kind once, in a drawn order, then a few more of any kind.
    const everyKindOnce = fc
      .tuple(...Object.values(steps))
      .chain((one) => fc.shuffledSubarray<Step>(one, { minLength: one.length }));
    const run = fc
      .tuple(everyKindOnce, fc.array(fc.oneof(...Object.values(steps)), { maxLength: 3 }))
      .map(([each, more]) => [...each, ...more]);
    /** Steps that did something, by kind (a revert with no snapshot of its run left to go back to does not count). */
    const done = new Map<string, number>();
    const runs = 5;
    await fc.assert(
      fc.asyncProperty(run, async (actions) => {
        // The run starts from a snapshot of its own, so its first revert always has one to go back to.
        const snapshots: unknown[] = [await rpc("evm_snapshot")];
        let lastMinted: number | undefined;
        for (const step of actions) {
          let did = true;
          // Enough for every transfer a run can draw (one of each kind, then up to three more).
          if (step.kind === "mint") lastMinted = (await mint("Property Item", 4)).tokenIds[0];
          if (step.kind === "snapshot") snapshots.push(await rpc("evm_snapshot"));
          if (step.kind === "revert") {
            did = snapshots.length > 0;
            if (did) {
              const [id] = snapshots.splice(step.pick % snapshots.length);
              expect(await rpc("evm_revert", [id])).toBe(true);
              lastMinted = undefined;
            }
          }
          if (step.kind === "time") {
            await rpc("evm_increaseTime", [step.seconds]);
            await rpc("evm_mine");
          }
          if (step.kind === "transfer") {
            const data = encodeFunctionData({
              abi: chain.abis.collection,
              functionName: "safeTransferFrom",
              args: [studio, arcade, BigInt(lastMinted ?? held), 1n, "0x"],
            });
            await rpc("eth_sendTransaction", [{ from: studio, to: collection, data }]);
          }
          if (step.kind === "balance") await rpc("hardhat_setBalance", [step.address, `0x${step.wei.toString(16)}`]);
          if (step.kind === "mine") for (let i = 0; i < step.blocks; i += 1) await rpc("evm_mine");
          if (did) done.set(step.kind, (done.get(step.kind) ?? 0) + 1);
          await expectIndexEqualsChain();
        }
        await expectModelsMatchContracts(chain);
      }),
      { numRuns: runs },
    );
    for (const kind of Object.keys(steps))
      expect(done.get(kind) ?? 0, `${kind} steps done: ${JSON.stringify([...done])}`).toBeGreaterThanOrEqual(runs);
  });
});
