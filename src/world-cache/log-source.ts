import { indexedEventsAbi, indexedPart } from "../indexer/decode.ts";
import { chainLogSource, type BlockRef, type LogSource } from "../indexer/log-source.ts";
import type { SimChain } from "../chain/sim-chain.ts";
import type { CachedChain, CachedWorld } from "./world-cache.ts";

/**
 * The chain as a previous start gave it to its indexer: its head and every followed log up
 * to it, decoded. An indexer reading from here folds the same logs through the same
 * reducers as one reading from the chain.
 */
export function cachedLogSource({ chainId, head, logs }: CachedChain): LogSource {
  return {
    latest: async () => head,
    async block(number) {
      if (number === head.number) return head;
      throw new Error(`the cached world of chain ${chainId} has no block ${number}`);
    },
    logs: async (from, to) => logs.filter((log) => log.blockNumber >= from && log.blockNumber <= to),
  };
}

/** Each chain's head block as it is now. */
export async function headsOf(chains: SimChain[]): Promise<Map<number, BlockRef>> {
  const heads = await Promise.all(chains.map((chain) => sourceOf(chain).latest()));
  return new Map(heads.map((head, i) => [chains[i]!.chainId, head]));
}

/**
 * The world as the chains held it at `heads` (every followed log up to each head, the metadata
 * on chain included); undefined if a chain no longer holds its head block (it went back since).
 */
export async function captureWorld(chains: SimChain[], heads: Map<number, BlockRef>): Promise<CachedWorld | undefined> {
  const captured: CachedChain[] = [];
  for (const chain of chains) {
    const source = sourceOf(chain);
    const head = heads.get(chain.chainId)!;
    const logs = (await source.logs(0n, head.number, await chain.read())).map(indexedPart);
    const still = await source.block(head.number).catch(() => undefined);
    if (still?.hash !== head.hash) return undefined;
    captured.push({ chainId: chain.chainId, contracts: chain.contracts, head, logs });
  }
  return { chains: captured };
}

function sourceOf(chain: SimChain): LogSource {
  return chainLogSource(chain.publicClient, indexedEventsAbi(chain.abis));
}
