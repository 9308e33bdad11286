import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HeightPassed, mineUntilNext } from "../../src/chain/height.ts";
import { startChain, type Chain } from "../../src/chain/network.ts";
import { keyFor } from "../../src/core/keys.ts";

let chain: Chain;
const head = async () => Number(await chain.publicClient.getBlockNumber());

beforeAll(async () => {
  chain = await startChain({ chainId: 56, keys: [keyFor("height")], genesisTime: new Date("2025-01-01T00:00:00Z") });
});
afterAll(() => chain?.close());

describe("mineUntilNext", () => {
  it("mines tens of millions of empty blocks at once, at the head's time, so the next block is the one asked", async () => {
    await mineUntilNext(chain.connection.provider, 56, 51_000_000);
    expect(await head()).toBe(50_999_999);
    const block = await chain.publicClient.getBlock();
    expect(new Date(Number(block.timestamp) * 1000).toISOString()).toBe("2025-01-01T00:00:00.000Z");
    await chain.connection.provider.request({ method: "evm_mine", params: [] });
    expect(await head()).toBe(51_000_000);
  });

  it("mines nothing when the next block is already the one asked", async () => {
    await mineUntilNext(chain.connection.provider, 56, 51_000_001);
    expect(await head()).toBe(51_000_000);
  });

  it("refuses a height the chain has passed, naming both", async () => {
    const refused = mineUntilNext(chain.connection.provider, 56, 51_000_000);
    await expect(refused).rejects.toBeInstanceOf(HeightPassed);
    await expect(refused).rejects.toThrow("chain 56 is at block 51000000, past block 51000000");
    expect(await head()).toBe(51_000_000);
  });
});
