import type { Hex } from "viem";
import type { RequestProvider } from "./block-batcher.ts";

/** Why a chain cannot start a world at `wanted`: its head is already there or past it. */
export function heightPassed(chainId: number, wanted: number, head: number): string {
  return (
    `chain ${chainId} is at block ${head}, past block ${wanted} where the world wants its next block: blocks ` +
    `cannot go back (start the chain lower, or give the world a later height)`
  );
}

/**
 * Mines empty blocks until the head is `block` - 1, so the next block is `block`: one `hardhat_mine` (EDR makes the
 * blocks in O(1); anvil takes the alias too), each at the head's time. Nothing is mined when the head is there. Answers
 * the head when it is already at or past `block` (nothing mined), else undefined.
 */
export async function mineUntilNext(
  provider: RequestProvider,
  block: number,
): Promise<{ passedAt: number } | undefined> {
  const head = Number(BigInt((await provider.request({ method: "eth_blockNumber", params: [] })) as Hex));
  if (head >= block) return { passedAt: head };
  const count = block - 1 - head;
  if (count > 0) await provider.request({ method: "hardhat_mine", params: [`0x${count.toString(16)}`, "0x0"] });
  return undefined;
}
