import {
  createPublicClient,
  createWalletClient,
  encodeFunctionData,
  http,
  parseEther,
  type Abi,
  type Address,
  type Hex,
} from "viem";
import { describe, expect, it } from "vitest";
import type { Simulator } from "../../src/simulator/simulator.ts";
import { eventually } from "../eventually.ts";
import { call, demoAccount, mintItem, postJson } from "../harness.ts";
import { readWorld } from "../world-reads.ts";

// Checks that hold for the simulator on any node it did not start (anvil, Hardhat's node): run by
// test/chain/anvil.test.ts and test/chain/hardhat-node.test.ts against their own node.

/** Every answer of chain `chainId`'s collections and item histories, with what only the chain's signer decides (transaction hashes) taken out unless `keepHashes`. */
/**
 * The in-process simulator a node's answers are compared with: its chain 56 starts where a fresh node does (block 1
 * is the world's first), not at the chain's real height, which only in-process chains are mined up to.
 */
export const LIKE_A_FRESH_NODE = {
  chains: [
    { chainId: 56, rpcPort: 0, startBlock: 1 },
    { chainId: 137, rpcPort: 0 },
  ],
};

/**
 * What a client reads of one chain (`readWorld` of it: the list, each collection, each item's whole history and
 * metadata), each answer by its path; transaction hashes masked unless kept.
 */
export async function chainAnswers(
  sim: Simulator,
  chainId: number,
  { keepHashes = false } = {},
): Promise<{ count: number; answers: Record<string, string> }> {
  const { count, answers } = await readWorld(sim.url, { chainId, control: false });
  const masked = (text: string) => (keepHashes ? text : text.replace(/0x[0-9a-f]{64}/g, "<tx>"));
  return { count, answers: Object.fromEntries([...answers].map(([path, text]) => [path, masked(text)])) };
}

/** How a node takes back its latest blocks: anvil_reorg on anvil; evm_snapshot then evm_revert on Hardhat's node. */
export interface Rewinder {
  /** Marks the point to come back to, before the blocks to drop are mined. */
  mark(): Promise<void>;
  /** Drops every block mined since `mark`. */
  rewind(): Promise<void>;
}

export interface NodeUnderTest {
  /** The node's URL (it serves chain 56), the simulator on it, and the same world in process for comparison. */
  nodeUrl: () => string;
  sim: () => Simulator;
  inProcess: () => Simulator;
  rewinder: (nodeUrl: string) => Rewinder;
}

async function send(nodeUrl: string, from: Address, to: Address, data: Hex, value?: bigint): Promise<void> {
  const wallet = createWalletClient({ transport: http(nodeUrl), account: from });
  const hash = await wallet.sendTransaction({ chain: null, to, data, ...(value ? { value } : {}) });
  const receipt = await createPublicClient({ transport: http(nodeUrl) }).waitForTransactionReceipt({
    hash,
    pollingInterval: 50,
  });
  expect(receipt.status).toBe("success");
}

async function rpcBlock(nodeUrl: string): Promise<{ timestamp: number }> {
  const block = await createPublicClient({ transport: http(nodeUrl) }).getBlock({ blockTag: "latest" });
  return { timestamp: Number(block.timestamp) };
}

export function nodeSuite(name: string, node: NodeUnderTest): void {
  describe(`the simulator on ${name}`, () => {
    it("answers exactly as in process (the same world, block for block), but for transaction hashes", async () => {
      const onNode = await chainAnswers(node.sim(), 56);
      expect(onNode).toEqual(await chainAnswers(node.inProcess(), 56));
      expect(onNode.count).toBe(3);
    });

    it("mints through the API there; a transfer sent to the node directly shows in the item's history", async () => {
      const sim = node.sim();
      const [collection] = (
        await call(sim, "/api/v2/collection?chainId=56&sortBy=name&sortDir=asc")
      ).body.collections.map((c: { address: Address }) => c.address);
      const minted = await mintItem(sim, { collection, chainId: 56, item: { initialSupply: 3 } });
      expect(minted.status).toBe(200);
      const tokenId = minted.body.tokenIds[0];
      const history = (await call(sim, `/api/v2/item/events/${collection}/${tokenId}`)).body.events;
      expect(history.map((event: { event: string; from: string }) => [event.event, event.from])).toEqual([
        ["TransferSingle", "0x0000000000000000000000000000000000000000"],
      ]);
      expect(history[0].transactionHash).toBe(minted.body.txHash);

      const studio = demoAccount(sim, "studio").wallet;
      const arcade = demoAccount(sim, "arcade").wallet;
      const abi = sim.chains.get(56)!.abis.collection as Abi;
      await send(
        node.nodeUrl(),
        studio,
        collection,
        encodeFunctionData({
          abi,
          functionName: "safeTransferFrom",
          args: [studio, arcade, BigInt(tokenId), 1n, "0x"],
        }),
      );
      const shown = await eventually(async () => {
        const events = (await call(sim, `/api/v2/item/events/${collection}/${tokenId}`)).body.events;
        expect(events).toHaveLength(2);
        return events;
      });
      expect(shown[0]).toMatchObject({ event: "TransferSingle", from: studio, to: arcade, amount: "1" });
    });

    it("steers the node's chain through the control API: time moves on, and a new API key's wallet (impersonated, funded there) mints", async () => {
      const sim = node.sim();
      const before = (await call(sim, "/_sim/time")).body.chains.find(
        (chain: { chainId: number }) => chain.chainId === 56,
      );
      const advanced = await postJson(sim, "/_sim/time/advance", { seconds: 86_400, chainId: 56 });
      expect(advanced.status).toBe(200);
      const after = advanced.body.chains.find((chain: { chainId: number }) => chain.chainId === 56);
      expect(after.timestamp).toBe(before.timestamp + 86_400);
      expect((await rpcBlock(node.nodeUrl())).timestamp).toBe(after.timestamp);

      const { body: key } = await postJson(sim, "/_sim/api-keys", { name: `node-${Date.now()}` });
      const created = await postJson(sim, "/_sim/collections", {
        chainId: 56,
        name: "Made On The Node",
        owner: key.apiKey,
        minters: [key.apiKey],
      });
      expect(created.status).toBe(200);
      const minted = await mintItem(sim, {
        collection: created.body.address,
        chainId: 56,
        apiKey: key.apiKey,
        recipient: key.wallet,
        item: { name: "Fresh", initialSupply: 1 },
      });
      expect(minted.status).toBe(200);
      const tx = await createPublicClient({ transport: http(node.nodeUrl()) }).getTransaction({
        hash: minted.body.txHash,
      });
      expect(tx.from).toBe(key.wallet);
    });

    it("drops a sale the node takes back from the item's history and from the collection's volumes", async () => {
      const sim = node.sim();
      const chain = sim.chains.get(56)!;
      const [collection] = (
        await call(sim, "/api/v2/collection?chainId=56&sortBy=name&sortDir=desc")
      ).body.collections.map((c: { address: Address }) => c.address);
      const minted = await mintItem(sim, { collection, chainId: 56, item: { initialSupply: 2 } });
      const tokenId = BigInt(minted.body.tokenIds[0]);
      const before = (await call(sim, `/api/v2/collection/${collection}`)).body.collection;
      const studio = demoAccount(sim, "studio").wallet;
      const arcade = demoAccount(sim, "arcade").wallet;
      const { marketplace } = chain.contracts;
      const rewinder = node.rewinder(node.nodeUrl());
      await rewinder.mark();
      await send(
        node.nodeUrl(),
        studio,
        collection,
        encodeFunctionData({
          abi: chain.abis.collection as Abi,
          functionName: "setApprovalForAll",
          args: [marketplace, true],
        }),
      );
      const price = parseEther("2");
      await send(
        node.nodeUrl(),
        studio,
        marketplace,
        encodeFunctionData({
          abi: chain.abis.marketplace as Abi,
          functionName: "list",
          args: [collection, tokenId, 1n, price, "0x0000000000000000000000000000000000000000"],
        }),
      );
      const listingId = (await chain.publicClient.readContract({
        address: marketplace,
        abi: chain.abis.marketplace,
        functionName: "listingCount",
      })) as bigint;
      await send(
        node.nodeUrl(),
        arcade,
        marketplace,
        encodeFunctionData({ abi: chain.abis.marketplace as Abi, functionName: "buy", args: [listingId, 1n] }),
        price,
      );
      const sold = await eventually(async () => {
        const { body } = await call(sim, `/api/v2/collection/${collection}`);
        expect(body.collection.volume_all).toBeGreaterThan(before.volume_all);
        return body.collection;
      });
      expect(sold.volume_all - before.volume_all).toBeCloseTo(2 * 243.06, 6);
      expect(
        (await call(sim, `/api/v2/item/events/${collection}/${tokenId}`)).body.events.map(
          (e: { event: string }) => e.event,
        ),
      ).toContain("Swapped");

      await rewinder.rewind();
      const after = await eventually(async () => {
        const { body } = await call(sim, `/api/v2/collection/${collection}`);
        expect(body.collection.volume_all).toBe(before.volume_all);
        return body.collection;
      });
      expect(after).toEqual(before);
      const events = (await call(sim, `/api/v2/item/events/${collection}/${tokenId}`)).body.events.map(
        (e: { event: string }) => e.event,
      );
      expect(events).toEqual(["TransferSingle"]);
    });
  });
}
