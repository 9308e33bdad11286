import type { Hex } from "viem";
import type { PublicClient } from "../chain/network.ts";
import { decodeLogs, type DecodedLog, type indexedEventsAbi } from "./decode.ts";

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
  /** Throws if the source has no such block. */
  block(number: bigint): Promise<BlockRef>;
  /** The followed logs of blocks `from` to `to`, in chain order. */
  logs(from: bigint, to: bigint): Promise<DecodedLog[]>;
}

/** The chain, through its client: logs come decoded by `abi` (other logs are skipped). */
export function chainLogSource(client: Pick<PublicClient, "getBlock" | "getLogs">, abi: ReturnType<typeof indexedEventsAbi>): LogSource {
  const ref = ({ number, hash, timestamp }: { number: bigint; hash: Hex; timestamp: bigint }): BlockRef => ({ number, hash, timestamp });
  return {
    latest: async () => ref(await client.getBlock({ blockTag: "latest" })),
    block: async (number) => ref(await client.getBlock({ blockNumber: number })),
    logs: async (from, to) => decodeLogs(abi, await client.getLogs({ fromBlock: from, toBlock: to })),
  };
}
