import { parseEventLogs, type Log } from "viem";
import type { Abis } from "../core/abi.ts";

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

type AnyDecodedLog = ReturnType<typeof parseEventLogs<EventsAbi>>[number];
export type DecodedLog = Extract<AnyDecodedLog, { eventName: IndexedEventName }>;
export type ArgsOf<Name extends IndexedEventName> = Extract<DecodedLog, { eventName: Name }>["args"];

/** What the indexer reads of a decoded log (a world cache keeps these parts only; its head names its block hash). */
type Read = "eventName" | "args" | "address" | "blockNumber" | "logIndex" | "transactionHash" | "blockTimestamp";
type ReadOf<Log> = Log extends DecodedLog ? Pick<Log, Read> & Partial<Pick<Log, "blockHash">> : never;
export type IndexedLog = ReadOf<DecodedLog>;

/** A log with the parts the indexer reads and nothing else (a decoded log from the chain holds more). */
export function indexedPart({
  eventName,
  args,
  address,
  blockNumber,
  logIndex,
  transactionHash,
  blockTimestamp,
}: IndexedLog): IndexedLog {
  return { eventName, args, address, blockNumber, logIndex, transactionHash, blockTimestamp } as IndexedLog;
}

/** Logs this indexer understands, decoded; any other log is skipped. */
export function decodeLogs(abi: EventsAbi, logs: Log[]): DecodedLog[] {
  return parseEventLogs({ abi, logs, strict: true }).filter((log): log is DecodedLog => indexed.has(log.eventName));
}
