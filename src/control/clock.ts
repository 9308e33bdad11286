import type { ChainRegistry } from "../chain/registry.ts";
import { headOf, mineAt } from "../chain/actions/node-state.ts";
import type { TimeResponse } from "../schemas/control.ts";

/** Each chain's head block and its time, after indexing it. */
export async function chainClocks(chains: ChainRegistry): Promise<TimeResponse> {
  const reads = await chains.read();
  return {
    chains: reads.map(({ chain: { chainId }, models: { head } }) => ({
      chainId,
      blockNumber: head.blockNumber,
      timestamp: head.timestamp,
      time: new Date(head.timestamp * 1000).toISOString(),
    })),
  };
}

/** Mines a block `seconds` after each chain's head; answers the times it mined at, per chain. */
export async function advanceTime(chains: ChainRegistry, chainIds: number[], seconds: number): Promise<number[]> {
  const times: number[] = [];
  for (const chainId of chainIds) {
    const chain = chains.get(chainId)!;
    const at = Number((await headOf(chain)).timestamp) + seconds;
    await mineAt(chain, at);
    times.push(at);
  }
  return times;
}

/** Mines each chain's block at the time recorded for it (journal replay). */
export async function mineAtTimes(chains: ChainRegistry, chainIds: number[], times: number[]): Promise<void> {
  for (const [i, chainId] of chainIds.entries()) await mineAt(chains.get(chainId)!, times[i]!);
}
