import type { Address, Hex, Log } from "viem";
import type { PublicClient } from "../chain/network.ts";
import { decodeLogs, type DecodedLog, type indexedEventsAbi } from "./decode.ts";
import type { ChainModels } from "./models.ts";

/** A block as the indexer needs it: where it is, what it is, and when it was made. */
export interface BlockRef {
  number: bigint;
  hash: Hex;
  timestamp: bigint;
}

/**
 * Where an indexer reads the chain: its head, a block by number, and the logs it follows,
 * decoded. The chain itself (`chainLogSource`), or a record of what the chain gave before
 * (src/world-cache/).
 */
export interface LogSource {
  latest(): Promise<BlockRef>;
  /** Throws viem's BlockNotFoundError if the source has no such block (anything else: it could not be asked). */
  block(number: bigint): Promise<BlockRef>;
  /** The followed logs of blocks `from` to `to`, in chain order; `known` is what the index holds so far. */
  logs(from: bigint, to: bigint, known: ChainModels): Promise<DecodedLog[]>;
}

export interface ChainSourceOptions {
  /** Read only the logs of the factory, the marketplace and the known collections (a chain shared with others holds theirs too). */
  ownLogsOnly?: boolean;
}

/** The chain, through its client: logs come decoded by `abi` (other logs are skipped). */
export function chainLogSource(client: Pick<PublicClient, "getBlock" | "getLogs">, abi: ReturnType<typeof indexedEventsAbi>, { ownLogsOnly = false }: ChainSourceOptions = {}): LogSource {
  const ref = ({ number, hash, timestamp }: { number: bigint; hash: Hex; timestamp: bigint }): BlockRef => ({ number, hash, timestamp });
  return {
    latest: async () => ref(await client.getBlock({ blockTag: "latest" })),
    block: async (number) => ref(await client.getBlock({ blockNumber: number })),
    logs: async (fromBlock, toBlock, known) =>
      decodeLogs(abi, ownLogsOnly ? await ownLogs(client, abi, known, { fromBlock, toBlock }) : await client.getLogs({ fromBlock, toBlock })),
  };
}

/**
 * The logs of the simulator's own contracts in a range, in chain order, for a chain shared with
 * others (whose collections emit the same events): the factory's first, since they name the
 * collections created in the range, then the marketplace's and every collection's.
 */
async function ownLogs(client: Pick<PublicClient, "getLogs">, abi: ReturnType<typeof indexedEventsAbi>, known: ChainModels, range: { fromBlock: bigint; toBlock: bigint }): Promise<Log[]> {
  const { factory, marketplace } = known.facts;
  const fromFactory = await client.getLogs({ address: factory, ...range });
  const created = decodeLogs(abi, fromFactory).flatMap((log) => (log.eventName === "CollectionCreated" ? [log.args.collection.toLowerCase() as Address] : []));
  const others = await client.getLogs({ address: [marketplace, ...known.collections.keys(), ...created], ...range });
  return [...fromFactory, ...others].sort((a, b) => Number(a.blockNumber! - b.blockNumber!) || a.logIndex! - b.logIndex!);
}

