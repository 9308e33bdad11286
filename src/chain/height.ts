import type { Hex } from "viem";
import type { RequestProvider } from "./block-batcher.ts";

/** A chain's head, or a world's height the chain cannot reach: it is already past it. */
export class HeightPassed extends Error {
  readonly chainId: number;
  readonly wanted: number;
  readonly head: number;

  constructor(chainId: number, wanted: number, head: number) {
    super(
      `chain ${chainId} is at block ${head}, past block ${wanted} where the world wants its next block: blocks ` +
        `cannot go back (start the chain lower, or give the world a later height)`,
    );
    this.chainId = chainId;
    this.wanted = wanted;
    this.head = head;
  }
}

/**
 * Mines empty blocks until the head is `block` - 1, so the next block is `block`: one `hardhat_mine` (EDR makes the
 * blocks in O(1); anvil takes the alias too), each at the head's time. Nothing is mined when the head is there; a head
 * past it throws `HeightPassed`.
 */
export async function mineUntilNext(provider: RequestProvider, chainId: number, block: number): Promise<void> {
  const head = Number(BigInt((await provider.request({ method: "eth_blockNumber", params: [] })) as Hex));
  if (head >= block) throw new HeightPassed(chainId, block, head);
  const count = block - 1 - head;
  if (count > 0) await provider.request({ method: "hardhat_mine", params: [`0x${count.toString(16)}`, "0x0"] });
}
