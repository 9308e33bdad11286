import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { emptyBlocksAhead, heightPassed, mineUntilNext, NODE_MINES_AT_MOST } from "../../src/chain/height.ts";
import { StartError } from "../../src/core/errors.ts";
import { startChain, type Chain } from "../../src/chain/network.ts";
import { keyFor } from "../../src/core/keys.ts";
import type { Hex } from "viem";
import { describeOnAnvil, startAnvil } from "./nodes.ts";
import { rpc } from "../rpc.ts";

let chain: Chain;
const head = async () => Number(await chain.publicClient.getBlockNumber());

beforeAll(async () => {
  chain = await startChain({ chainId: 56, keys: [keyFor("height")], genesisTime: new Date("2025-01-01T00:00:00Z") });
});
afterAll(() => chain?.close());

describe("mineUntilNext", () => {
  it("mines tens of millions of empty blocks at once, at the head's time, so the next block is the one asked", async () => {
    await mineUntilNext(chain.connection.provider, 51_000_000);
    expect(await head()).toBe(50_999_999);
    const block = await chain.publicClient.getBlock();
    expect(new Date(Number(block.timestamp) * 1000).toISOString()).toBe("2025-01-01T00:00:00.000Z");
    await chain.connection.provider.request({ method: "evm_mine", params: [] });
    expect(await head()).toBe(51_000_000);
  });

  it("mines nothing when the next block is already the one asked", async () => {
    await mineUntilNext(chain.connection.provider, 51_000_001);
    expect(await head()).toBe(51_000_000);
  });

  it("mines nothing on a chain already past the height asked, and answers its head; the refusal names both", async () => {
    expect(await mineUntilNext(chain.connection.provider, 51_000_000)).toEqual({ passedAt: 51_000_000 });
    expect(await head()).toBe(51_000_000);
    expect(heightPassed(56, 51_000_000, 51_000_000)).toContain("chain 56 is at block 51000000, past block 51000000");
  });

  it("asks a node for at most NODE_MINES_AT_MOST blocks (it makes each one): more are refused before any is mined", async () => {
    const provider = chain.connection.provider;
    const far = 51_000_001 + NODE_MINES_AT_MOST + 1;
    await expect(mineUntilNext(provider, far, { node: true })).rejects.toThrow(StartError);
    await expect(mineUntilNext(provider, far, { node: true })).rejects.toThrow(
      `the ${NODE_MINES_AT_MOST + 1} empty blocks from 51000001 up to block ${far} are more than a node is asked to mine`,
    );
    expect(await head()).toBe(51_000_000);
    await mineUntilNext(provider, far - 1, { node: true });
    expect(await head()).toBe(far - 2);
  });
});

describe("emptyBlocksAhead", () => {
  it("sums the gaps between the blocks entries name, each entry taking a block at least", () => {
    // From head 100: 101 is next (none empty), then an entry naming none (102), then 110 (103 to 109 empty), a run
    // naming a block the head passed (111), then 200 (112 to 199).
    expect(emptyBlocksAhead(100, [101, undefined, 110, 105, 200])).toBe(7 + 88);
    expect(emptyBlocksAhead(100, [])).toBe(0);
    expect(emptyBlocksAhead(100, [undefined, undefined, 103])).toBe(0);
  });
});

describe("mineUntilNext on a chain that started a while ago (a loaded machine)", () => {
  const genesisTime = new Date("2025-01-01T00:00:00Z");
  const started: Chain[] = [];
  afterAll(() => Promise.all(started.map((one) => one.close())));

  /** A chain mined up to block 200 `afterMs` after it started; answers each block's hash and time, genesis on. */
  async function minedAfter(afterMs: number) {
    const one = await startChain({ chainId: 56, keys: [keyFor("height")], genesisTime });
    started.push(one);
    await new Promise((resolve) => setTimeout(resolve, afterMs));
    await mineUntilNext(one.connection.provider, 200);
    const blocks = [];
    for (let number = 0; number < 200; number++) {
      const { hash, timestamp } = (await one.connection.provider.request({
        method: "eth_getBlockByNumber",
        params: [`0x${number.toString(16)}`, false],
      })) as { hash: Hex; timestamp: Hex };
      blocks.push({ number, hash, time: Number(BigInt(timestamp)) });
    }
    return blocks;
  }

  it("makes the same blocks as one mined at once: every block at genesis time, every hash alike", async () => {
    // Over a second after its start, a block stamped by the wall clock would be a second later than genesis.
    const [atOnce, late] = await Promise.all([minedAfter(0), minedAfter(1_100)]);
    const genesis = genesisTime.getTime() / 1000;
    expect(late.filter(({ time }) => time !== genesis)).toEqual([]);
    expect(late).toEqual(atOnce);
  });
});

describeOnAnvil("mineUntilNext on anvil", () => {
  it("with its time pinned (pinsTime), makes every empty block at the head's time however long they take", async () => {
    const genesis = Date.parse("2025-01-01T00:00:00Z") / 1000;
    const anvil = await startAnvil({ chainId: 56, timestamp: genesis });
    try {
      const provider = {
        request: ({ method, params }: { method: string; params?: unknown[] }) => rpc(anvil.url, method, params),
      };
      // Two thousand blocks take anvil over a second: unpinned, it stamps the last ones a second or more later.
      await mineUntilNext(provider, 2_002, { pinsTime: true });
      const head = await rpc<{ number: Hex; timestamp: Hex }>(anvil.url, "eth_getBlockByNumber", ["latest", false]);
      expect(Number(head.number)).toBe(2_001);
      expect(Number(head.timestamp)).toBe(genesis);
      // So the next entry may still go in at the head's time, and anvil mines at its own pace again after.
      await rpc(anvil.url, "evm_setNextBlockTimestamp", [genesis]);
      await rpc(anvil.url, "evm_mine");
      await new Promise((resolve) => setTimeout(resolve, 1_100));
      await rpc(anvil.url, "evm_mine");
      const after = await rpc<{ timestamp: Hex }>(anvil.url, "eth_getBlockByNumber", ["latest", false]);
      expect(Number(after.timestamp)).toBeGreaterThan(genesis);
    } finally {
      await anvil.stop("SIGKILL");
    }
  }, 120_000);
});
