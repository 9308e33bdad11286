// The logs the indexer follows: which events, decoded, and where it reads them (the chain, or an image's head).
import { parseEventLogs, type Log, BlockNotFoundError, type Address, type Hex, type PublicClient } from "viem";
import type { Abis } from "../core/abi.ts";
import type { ReadModels } from "./models.ts";

/** The events the indexer follows, from the factory, the collections and the marketplace. */
export const INDEXED_EVENTS = [
  "CollectionCreated",
  "ItemCreated",
  "ItemDescribed",
  "TransferSingle",
  "TransferBatch",
  "ItemListed",
  "ItemDelisted",
  "ItemPriceUpdated",
  "ItemAdded",
  "ItemRemoved",
  "Swapped",
] as const;
export type IndexedEventName = (typeof INDEXED_EVENTS)[number];

const indexed = new Set<string>(INDEXED_EVENTS);

type EventsAbi = [...Abis["factory"], ...Abis["collection"], ...Abis["marketplace"]];

/** The ABI entries of the followed events (typed as the contracts' ABIs, which hold them). */
export function indexedEventsAbi(abis: Abis): EventsAbi {
  return [...abis.factory, ...abis.collection, ...abis.marketplace].filter(
    (entry) => entry.type === "event" && indexed.has(entry.name),
  ) as unknown as EventsAbi;
}

export type DecodedLog = Extract<ReturnType<typeof parseEventLogs<EventsAbi>>[number], { eventName: IndexedEventName }>;
export type ArgsOf<Name extends IndexedEventName> = Extract<DecodedLog, { eventName: Name }>["args"];

/** What the indexer reads of a decoded log (a world cache keeps these parts only; its head names its block hash). */
type Read = "eventName" | "args" | "address" | "blockNumber" | "logIndex" | "transactionHash" | "blockTimestamp";
type ReadOf<Log> = Log extends DecodedLog ? Pick<Log, Read> & Partial<Pick<Log, "blockHash">> : never;
export type IndexedLog = ReadOf<DecodedLog>;

/** Logs this indexer understands, decoded; any other log is skipped. */
export function decodeLogs(abi: EventsAbi, logs: Log[]): DecodedLog[] {
  return parseEventLogs({ abi, logs, strict: true }).filter((log): log is DecodedLog => indexed.has(log.eventName));
}

/** A block as the indexer needs it: where it is, what it is, and when it was made. */
export interface BlockRef {
  number: bigint;
  hash: Hex;
  timestamp: bigint;
}

/**
 * Where an indexer reads the chain: its head, a block by number, and the logs it follows,
 * decoded. The chain itself (`chainLogSource`), or the head an image of the index left it at
 * (`imageHead`).
 */
export interface LogSource {
  latest(): Promise<BlockRef>;
  /** Throws viem's BlockNotFoundError if the source has no such block (anything else: it could not be asked). */
  block(number: bigint): Promise<BlockRef>;
  /** The followed logs of blocks `from` to `to`, in chain order; `known` is what the index holds so far. */
  logs(from: bigint, to: bigint, known: ReadModels): Promise<IndexedLog[]>;
}

/**
 * The chain as an image of its index left it (journal/image.ts): at the image's head, with no log after it. An index
 * loaded from an image answers at once from here; its chain is replayed meanwhile, and the index then reads it
 * (`readFrom`), checking first it holds this head.
 */
export function imageHead({ head }: Pick<ReadModels, "head">, hash: Hex | undefined): LogSource {
  const block = { number: BigInt(head.blockNumber), hash: hash ?? ("0x" as Hex), timestamp: BigInt(head.timestamp) };
  return {
    latest: async () => block,
    async block(number) {
      if (number === block.number) return block;
      throw new BlockNotFoundError({ blockNumber: number });
    },
    logs: async () => [],
  };
}

export interface ChainSourceOptions {
  /**
   * Read only the logs of the factory, the marketplace and the known collections (a chain shared with others holds
   * theirs too).
   */
  ownLogsOnly?: boolean;
  /**
   * The most blocks one eth_getLogs asks for (nodes and providers limit it); halved for good
   * whenever the node answers a range with an error. Unbounded without it.
   */
  maxLogRange?: number;
}

/** The chain, through its client: logs come decoded by `abi` (other logs are skipped). */
export function chainLogSource(
  client: Pick<PublicClient, "getBlock" | "getLogs">,
  abi: ReturnType<typeof indexedEventsAbi>,
  { ownLogsOnly = false, maxLogRange }: ChainSourceOptions = {},
): LogSource {
  const ref = ({ number, hash, timestamp }: BlockRef): BlockRef => ({ number, hash, timestamp });
  const span = { blocks: maxLogRange === undefined ? undefined : BigInt(maxLogRange) };
  return {
    latest: async () => ref(await client.getBlock({ blockTag: "latest" })),
    block: async (number) => ref(await client.getBlock({ blockNumber: number })),
    logs: async (from, to, known) => {
      // On a chain shared with others (whose collections emit the same events), only the simulator's own contracts'
      // logs, in chain order: the factory's first, since they name the collections created in the range, then the
      // marketplace's and every collection's. `created`: those created in earlier ranges of this read, which the
      // models do not hold yet.
      const created = new Set<Address>();
      const read = async (fromBlock: bigint, toBlock: bigint): Promise<Log[]> => {
        if (!ownLogsOnly) return client.getLogs({ fromBlock, toBlock });
        const { factory, marketplace } = known.facts;
        const fromFactory = await client.getLogs({ address: factory, fromBlock, toBlock });
        for (const log of decodeLogs(abi, fromFactory))
          if (log.eventName === "CollectionCreated") created.add(log.args.collection.toLowerCase() as Address);
        const address = [marketplace, ...known.collections.keys(), ...created];
        const others = await client.getLogs({ address, fromBlock, toBlock });
        return [...fromFactory, ...others].sort(
          (a, b) => Number(a.blockNumber! - b.blockNumber!) || a.logIndex! - b.logIndex!,
        );
      };
      return decodeLogs(abi, await readInRanges(from, to, span, read));
    },
  };
}

/**
 * Reads blocks `from` to `to` in ranges of at most `span.blocks`, in order. A range the node
 * answers with an error is asked again in halves, and the span stays halved; a range of one
 * block that fails, or a node that does not answer at all, throws.
 */
async function readInRanges(
  from: bigint,
  to: bigint,
  span: { blocks: bigint | undefined },
  read: (from: bigint, to: bigint) => Promise<Log[]>,
): Promise<Log[]> {
  if (span.blocks === undefined) return read(from, to);
  const logs: Log[] = [];
  for (let start = from; start <= to;) {
    const last: bigint = start + span.blocks - 1n;
    const end: bigint = to < last ? to : last;
    try {
      logs.push(...(await read(start, end)));
      start = end + 1n;
    } catch (error) {
      // Halved only when the node answered with a JSON-RPC error (a code at the bottom), rather than not answering.
      if (end === start || typeof (rootCause(error) as { code?: unknown })?.code !== "number") throw error;
      span.blocks = (end - start + 1n) / 2n;
    }
  }
  return logs;
}

/** The innermost cause of an error (viem wraps what a transport threw, a chain error wraps what the node said). */
export function rootCause(error: unknown): unknown {
  let inner = error;
  while (inner instanceof Error && inner.cause instanceof Error) inner = inner.cause;
  return inner;
}
