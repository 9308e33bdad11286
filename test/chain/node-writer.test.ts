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
    // At once (the writer sees it in its own first wait), or once the mint has waited past that (its answer's wait).
    for (const [afterMs, name] of [
      [0, "Raced Relic"],
      [1_500, "Late Raced Relic"],
    ] as const) {
      const before = await names();
      node.loseNext("taken", afterMs);
      const answer = await mint(name);
      expect(answer.status, JSON.stringify(answer.body)).toBe(200);
      const lost = node.lost.at(-1) as Hex;
      expect(answer.body.txHash).not.toBe(lost);
      expect(await rpc(anvil.url, "eth_getTransactionByHash", [lost])).toBeNull();
      expect(await rpc(anvil.url, "eth_getTransactionReceipt", [answer.body.txHash])).toMatchObject({ status: "0x1" });
      expect(await names()).toEqual([...before, name]);
    }
  });

  it("a collection made and a minter granted, each lost to another writer at its nonce once it waited, answer the transaction mined", async () => {
    // Lost after the writer's own first wait for it (a second): sent again while the answer waits for it.
    node.loseNext("taken", 1_500);
    const created = await postJson(sim, "/_sim/collections", { chainId: 56, name: "Raced Twice", owner: apiKey });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const { body: other } = await postJson(sim, "/_sim/api-keys", { name: "racing-minter" });
    node.loseNext("taken", 1_500);
    const granted = await postJson(sim, `/_sim/collections/${created.body.address}/minters`, {
      apiKey: other.apiKey,
      chainId: 56,
    });
    expect(granted.status, JSON.stringify(granted.body)).toBe(200);
    expect(granted.body.isMinter).toBe(true);
    for (const { txHash } of [created.body, granted.body]) {
      expect(node.lost).not.toContain(txHash);
      expect(await rpc(anvil.url, "eth_getTransactionReceipt", [txHash])).toMatchObject({ status: "0x1" });
    }
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
