import { parseEventLogs, type Log } from "viem";
import type { Abis } from "../chain/abi.ts";

/** Every event the indexer follows, from the factory, the collections and the marketplace. */
export function indexedEventsAbi(abis: Abis) {
  return [...abis.factory, ...abis.collection, ...abis.marketplace].filter(
    (entry) => entry.type === "event" && INDEXED_EVENTS.has(entry.name),
  ) as unknown as EventsAbi;
}

const INDEXED_EVENTS = new Set<string>([
  "CollectionCreated",
  "ItemCreated",
  "TransferSingle",
  "TransferBatch",
  "ItemListed",
  "ItemDelisted",
  "ItemPriceUpdated",
  "ItemAdded",
  "ItemRemoved",
  "Swapped",
]);

type AllEvents = [...Abis["factory"], ...Abis["collection"], ...Abis["marketplace"]];
type EventsAbi = AllEvents;

/** Logs this indexer understands, decoded; any other log is skipped. */
export function decodeLogs(abi: EventsAbi, logs: Log[]): DecodedLog[] {
  return parseEventLogs({ abi, logs, strict: true }).filter((log): log is DecodedLog => INDEXED_EVENTS.has(log.eventName));
}

type AnyDecodedLog = ReturnType<typeof parseEventLogs<EventsAbi>>[number];
export type DecodedLog = Extract<AnyDecodedLog, { eventName: IndexedEventName }>;
export type IndexedEventName =
  | "CollectionCreated"
  | "ItemCreated"
  | "TransferSingle"
  | "TransferBatch"
  | "ItemListed"
  | "ItemDelisted"
  | "ItemPriceUpdated"
  | "ItemAdded"
  | "ItemRemoved"
  | "Swapped";
export type ArgsOf<Name extends IndexedEventName> = Extract<DecodedLog, { eventName: Name }>["args"];
