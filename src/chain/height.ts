import type { Hex } from "viem";
import type { RequestProvider } from "./block-batcher.ts";
import { nodeRefused } from "./node/capabilities.ts";

/** Why a chain cannot start a world at `wanted`: its head is already there or past it. */
export function heightPassed(chainId: number, wanted: number, head: number): string {
  return (
    `chain ${chainId} is at block ${head}, past block ${wanted} where the world wants its next block: blocks ` +
    `cannot go back (start the chain lower, or give the world a later height)`
  );
}

/**
 * The most empty blocks asked of a node at once: EDR makes any number in O(1), but anvil makes each one, and each the
 * slower the more blocks it holds (on a loaded 2-core machine, 1,000 from a fresh node took 0.96 s, 10,000 took 109 s:
 * docs/nodes.md), so a world's jump of millions of blocks (an imported world's live heights) would hang its start.
 */
export const NODE_MINES_AT_MOST = 1_000;

/**
 * The most empty blocks a node is asked for between the entries of one world: ten jumps of 1,000 cost more than one
 * of 10,000 there (156 s against 109 s: the node's work per block grows with the blocks it holds), so the bound is on
 * their sum too. Loaded, anvil took 0.9, 2.3 and 4.3 s for its first three jumps of 1,000, and 15.1 s for its sixth, past the
 * 15 s a node is given to answer.
 */
export const NODE_MINES_IN_ALL = 3_000;

/**
 * About how many empty blocks replaying entries at `blocks` (one per run of entries that share a block; undefined:
 * one that names none) asks for, from a head at `head`: the gaps between the blocks they name, each run taking one
 * block at least (so never fewer than it will ask).
 */
export function emptyBlocksAhead(head: number, blocks: readonly (number | undefined)[]): number {
  let empty = 0;
  for (const block of blocks) {
    if (block !== undefined && block > head + 1) empty += block - head - 1;
    head = block !== undefined && block > head ? block : head + 1;
  }
  return empty;
}

/**
 * Mines empty blocks until the head is `block` - 1, so the next block is `block`: one `hardhat_mine` (EDR makes the
 * blocks in O(1); anvil takes the alias too), each at the head's time. Nothing is mined when the head is there. Answers
 * the head when it is already at or past `block` (nothing mined), else undefined. On a node (`node`), more than
 * NODE_MINES_AT_MOST blocks are refused (NODE_REFUSED), before any is mined.
 */
export async function mineUntilNext(
  provider: RequestProvider,
  block: number,
  { node = false, pinsTime = false }: { node?: boolean; pinsTime?: boolean } = {},
): Promise<{ passedAt: number } | undefined> {
  const head = (await provider.request({ method: "eth_getBlockByNumber", params: ["latest", false] })) as {
    number: Hex;
    timestamp: Hex;
  };
  const number = Number(BigInt(head.number));
  if (number >= block) return { passedAt: number };
  const count = block - 1 - number;
  if (node && count > NODE_MINES_AT_MOST)
    throw nodeRefused(
      `the ${count} empty blocks from ${number + 1} up to block ${block} are more than a node is asked to mine (at ` +
        `most ${NODE_MINES_AT_MOST}: it makes each one)`,
    );
  if (count === 0) return undefined;
  // hardhat_mine stamps its first block by the wall clock (the interval only spaces the rest): pinned to the head's
  // time, so how long the start took does not change the blocks' hashes, nor those of every block after them.
  // anvil stamps every block after the first by the wall clock too, unless its interval is pinned at 0 (`pinsTime`).
  await provider.request({ method: "evm_setNextBlockTimestamp", params: [head.timestamp] });
  if (pinsTime) await provider.request({ method: "anvil_setBlockTimestampInterval", params: [0] });
  try {
    await provider.request({ method: "hardhat_mine", params: [`0x${count.toString(16)}`, "0x0"] });
  } finally {
    if (pinsTime) await provider.request({ method: "anvil_removeBlockTimestampInterval", params: [] });
  }
  return undefined;
}
