import type { Address, Hex } from "viem";
import { afterAll, beforeAll, expect, it } from "vitest";
import { emptyWorld } from "../../src/scenario/empty-world.ts";
import type { Simulator } from "../../src/simulator/simulator.ts";
import { call, expectErrorBody, mintItem, postJson, startTestSimulator } from "../harness.ts";
import { rpc } from "../rpc.ts";
import { describeOnAnvil, startAnvil, type NodeProcess } from "./nodes.ts";
import { startRacingNode } from "./plain-node.ts";

// Two writers sending as one impersonated wallet at once: anvil may take a transaction whose nonce it is mining for the
// other writer, answer its hash, then drop it as too low. The racing node does that on cue, so the race is the same
// every run. A mint so lost is sent again; one the node loses with its nonce left free answers 409, minting nothing.

const MINT_TIMEOUT_MS = 15_000;

describeOnAnvil("impersonated sends a node takes and then loses", () => {
  let anvil: NodeProcess;
  let node: Awaited<ReturnType<typeof startRacingNode>>;
  let sim: Simulator;
  let collection: Address;
  let apiKey: string;
  let wallet: Address;

  beforeAll(async () => {
    anvil = await startAnvil({ chainId: 56 });
    node = await startRacingNode(anvil.url);
    sim = await startTestSimulator(emptyWorld(), {
      nodeUrls: [node.url],
      chains: [],
      mintTimeoutMs: MINT_TIMEOUT_MS,
    });
    ({ apiKey, wallet } = (await postJson(sim, "/_sim/api-keys", { name: "racing" })).body);
    const created = await postJson(sim, "/_sim/collections", { chainId: 56, name: "Raced", owner: apiKey });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    collection = created.body.address as Address;
  });
  afterAll(async () => {
    await sim?.close();
    await node?.close();
    await anvil?.stop("SIGKILL");
  });

  const mint = (name: string) =>
    mintItem(sim, { collection, chainId: 56, apiKey, recipient: wallet, item: { name, initialSupply: 1 } });
  const names = async () =>
    (await call(sim, `/_sim/collections/${collection}/items?chainId=56`)).body.items.map(
      (item: { name: string }) => item.name,
    ) as string[];

  it("a mint whose nonce another writer's transaction took after the node answered its hash is sent again, and lands once", async () => {
    node.loseNext("taken");
    const answer = await mint("Raced Relic");
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    const [lost] = node.lost.slice(-1) as [Hex];
    expect(answer.body.txHash).not.toBe(lost);
    expect(await rpc(anvil.url, "eth_getTransactionByHash", [lost])).toBeNull();
    expect(await names()).toEqual(["Raced Relic"]);
  });

  it("a mint the node loses with its nonce left free answers 409 MINT_DROPPED naming it, mints nothing, and the next mint lands", async () => {
    const before = await names();
    node.loseNext("dropped");
    const answer = await mint("Dropped Relic");
    expect(answer.status, JSON.stringify(answer.body)).toBe(409);
    expectErrorBody(answer.body, "MINT_DROPPED");
    expect(answer.body.txHash).toBe(node.lost.at(-1));
    expect(await names()).toEqual(before);
    const next = await mint("After The Drop");
    expect(next.status, JSON.stringify(next.body)).toBe(200);
    expect(await names()).toEqual([...before, "After The Drop"]);
  });
});
