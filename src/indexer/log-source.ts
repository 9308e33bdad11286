import type { Address, Log } from "viem";
import type { PublicClient } from "../chain/network.ts";
import { decodeLogs, type indexedEventsAbi } from "./decode.ts";
import type { ChainModels } from "./models.ts";

/**
 * The logs of the simulator's own contracts in a range, in chain order, for a chain shared with
 * others (whose collections emit the same events): the factory's first, since they name the
 * collections created in the range, then the marketplace's and every collection's.
 */
export async function fetchLogs(
  client: PublicClient,
  abi: ReturnType<typeof indexedEventsAbi>,
  models: ChainModels,
  range: { fromBlock: bigint; toBlock: bigint },
): Promise<Log[]> {
  const { factory, marketplace } = models.facts;
  const fromFactory = await client.getLogs({ address: factory, ...range });
  const created = decodeLogs(abi, fromFactory).flatMap((log) => (log.eventName === "CollectionCreated" ? [log.args.collection.toLowerCase() as Address] : []));
  const others = await client.getLogs({ address: [marketplace, ...models.collections.keys(), ...created], ...range });
  return [...fromFactory, ...others].sort((a, b) => Number(a.blockNumber! - b.blockNumber!) || a.logIndex! - b.logIndex!);
}
