import { toHex } from "viem";
import { expect, it, vi } from "vitest";
import { addressOf, deployerKey, keyFor } from "../../src/core/keys.ts";
import type { Simulator } from "../../src/simulator/simulator.ts";
import { chainAnswers } from "../chain/node-suite.ts";
import { describeOnAnvil, startAnvil, type NodeProcess } from "../chain/nodes.ts";
import { mintItem, startTestSimulator } from "../harness.ts";
import { rpc } from "../rpc.ts";
import {
  DAY,
  NOW,
  OVERDRAWN,
  SHARED,
  sharedBlockScenario,
  sharedBlockWorld,
  START_BLOCK,
} from "./shared-block-world.ts";

// Entries that name one block, served on anvil (--rpc-url): the node's mining is held while they go in, so they share
// the block as in process (the same block numbers and log indexes, so the same ids), and given back after.

const genesis = Math.floor(sharedBlockWorld().genesisTime!.getTime() / 1000);
const keys = new Map(
  sharedBlockScenario([]).accounts.map((account) => [
    account.name,
    keyFor(account.keyLabel ?? `account/${account.name}`),
  ]),
);

/** A fresh anvil just below the world's first block, at its genesis, each key of the world funded there. */
async function anvilBelowTheWorld(blockTime?: number): Promise<NodeProcess> {
  const anvil = await startAnvil({ chainId: 56, timestamp: genesis, number: START_BLOCK - 1, blockTime });
  for (const key of [deployerKey(56), ...keys.values()])
    await rpc(anvil.url, "anvil_setBalance", [addressOf(key), "0xd3c21bcecceda1000000"]);
  return anvil;
}

async function withSimulators(
  signed: boolean,
  check: (onNode: Simulator, inProcess: Simulator, anvil: NodeProcess) => Promise<void>,
): Promise<void> {
  const anvil = await anvilBelowTheWorld();
  const world = () => sharedBlockWorld(undefined, signed ? { keys } : {});
  const givenKeys = signed ? { givenKeys: { deployer: deployerKey(56), accounts: keys } } : {};
  const [onNode, inProcess] = await Promise.all([
    startTestSimulator(world(), { nodeUrls: [anvil.url], ...givenKeys }),
    startTestSimulator(world()),
  ]);
  try {
    await check(onNode, inProcess, anvil);
  } finally {
    await Promise.all([onNode.close(), inProcess.close()]);
    await anvil.stop("SIGKILL");
  }
}

describeOnAnvil("entries that name one block, on anvil", () => {
  it("share it as in process: every answer alike but for transaction hashes; mining given back, a mint mined at once", async () => {
    await withSimulators(false, async (onNode, inProcess, anvil) => {
      const block = await rpc<{ timestamp: string; transactions: string[] }>(anvil.url, "eth_getBlockByNumber", [
        toHex(SHARED),
        false,
      ]);
      // A transfer, a listing and its buy: the listing's approval went in a free block below, as in process.
      expect(block.transactions).toHaveLength(3);
      expect(Number(block.timestamp)).toBe(NOW - DAY);
      expect(await chainAnswers(onNode, 56)).toEqual(await chainAnswers(inProcess, 56));
      const badge = (await (
        await fetch(`${onNode.url}/api/v2/item/events/${onNode.handles.collections.get("riders")!.address}/2`)
      ).json()) as { events: { id: string }[] };
      expect(badge.events[0]!.id).toBe(`TransferSingle-${SHARED}-0`);
      expect(await rpc(anvil.url, "hardhat_getAutomine")).toBe(true);
      const collection = onNode.handles.collections.get("riders")!.address;
      const recipient = addressOf(keyFor("account/bob"));
      const minted = await mintItem(onNode, { collection, chainId: 56, apiKey: "shared-studio-key", recipient });
      expect(minted.status, JSON.stringify(minted.body)).toBe(200);
    });
  }, 180_000);

  it("signed with the world's own keys (--keys), byte for byte as in process: each wallet's nonces in order in the block", async () => {
    await withSimulators(true, async (onNode, inProcess) => {
      expect(onNode.chains.get(56)!.node!.writer.signs).toBe(true);
      expect(await chainAnswers(onNode, 56, { keepHashes: true })).toEqual(
        await chainAnswers(inProcess, 56, { keepHashes: true }),
      );
    });
  }, 180_000);

  it("fails the start naming the entry whose transaction would revert there, as in process", async () => {
    const anvil = await anvilBelowTheWorld();
    try {
      await expect(startTestSimulator(sharedBlockWorld(OVERDRAWN), { nodeUrls: [anvil.url] })).rejects.toThrow(
        /timeline\[3\] \(transfer at -1d\) failed on chain 56: .*ERC1155InsufficientBalance/,
      );
      expect(await rpc(anvil.url, "hardhat_getAutomine")).toBe(true);
    } finally {
      await anvil.stop("SIGKILL");
    }
  }, 120_000);

  it("on a node that mines on a timer, go in blocks of their own, and the start says so", async () => {
    const anvil = await anvilBelowTheWorld(1);
    const warn = vi.spyOn(console, "warn");
    try {
      const sim = await startTestSimulator(sharedBlockWorld(), { nodeUrls: [anvil.url] });
      try {
        const collection = sim.handles.collections.get("riders")!.address;
        const events = async (tokenId: number) =>
          (
            (await (await fetch(`${sim.url}/api/v2/item/events/${collection}/${tokenId}`)).json()) as {
              events: { event: string; blockNumber: number }[];
            }
          ).events;
        expect((await events(2))[0]!.blockNumber).toBe(SHARED);
        const listed = (await events(1)).find((event) => event.event === "ItemListed")!;
        expect(listed.blockNumber).toBeGreaterThan(SHARED);
        expect(await rpc(anvil.url, "hardhat_getAutomine")).toBe(false);
      } finally {
        await sim.close();
      }
      expect(warn.mock.calls.flat().join("\n")).toMatch(
        /^chain 56: the node at .* mines on a timer: entries that name one block go in blocks of their own/m,
      );
    } finally {
      warn.mockRestore();
      await anvil.stop("SIGKILL");
    }
  }, 120_000);
});
