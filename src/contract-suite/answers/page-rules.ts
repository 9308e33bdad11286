import { NON_FILTER_PARAMETERS } from "../../schemas/collection.ts";
import { chainPosition, firstOutOfOrder, parseEventId, type Direction } from "../order.ts";
import { DEFAULTS, EVENTS_DEFAULTS } from "../target.ts";
import { duplicates, expectedPageLength } from "../checks/expect.ts";

// What one page answered with 200 must be, read from that page and its request alone: as many rows as its count
// and paging leave, in the documented order, only the rows its filters match, and (a history) events of the item
// asked for, their ids well formed and in agreement with their fields, ending in the mint on the last page.

/** The parts of a request the rules read: its path parameters and query, each as sent. */
export interface PageRequest {
  params: [string, string][];
  query: [string, string][];
}

interface Event {
  id: string;
  event: string;
  blockNumber: number;
  timestamp: number;
  transactionHash?: string;
  from?: string;
  chainId?: number;
  itemCollection?: string;
  tokenId?: number;
  itemRef?: string;
}

export interface ListBody {
  collections: ({ address: string } & Record<string, unknown>)[];
  count: number;
}

/** Mints come from it, burns go to it. */
export const ZERO_ADDRESS = "0x0000000000000000000000000000000000000000";

export const isMint = (event: { event: string; from?: string }) =>
  (event.event === "TransferSingle" || event.event === "TransferBatch") && event.from === ZERO_ADDRESS;

const given = (request: PageRequest, name: string) => request.query.find(([key]) => key === name)?.[1];
/** The paging a request asks for: its perPage and page, or the defaults. */
export const pagingIn = (request: PageRequest, defaults: { perPage: number; page: number }) => ({
  perPage: Number(given(request, "perPage") ?? defaults.perPage),
  page: Number(given(request, "page") ?? defaults.page),
});
export const perPageSaid = (request: PageRequest, perPage: number) =>
  given(request, "perPage") === undefined ? `the default perPage ${perPage}` : `perPage ${perPage}`;

/** What an id says against the event's own fields; empty when they agree. */
export function idProblems(event: Pick<Event, "id" | "event" | "blockNumber" | "transactionHash">): string[] {
  const parsed = parseEventId(event.id);
  if (!parsed)
    return [
      `id ${JSON.stringify(event.id)} is neither <Event>-<block>-<logIndex> nor ` +
        `<Event>-<listingId>-<txHash>-<logIndex>`,
    ];
  const problems: string[] = [];
  if (parsed.event !== event.event)
    problems.push(`id ${event.id} names ${parsed.event} but the event is ${event.event}`);
  if (parsed.kind === "transfer" && parsed.blockNumber !== event.blockNumber)
    problems.push(`id ${event.id} names block ${parsed.blockNumber} but blockNumber is ${event.blockNumber}`);
  if (parsed.kind === "market" && parsed.transactionHash !== event.transactionHash)
    problems.push(
      `id ${event.id} names transaction ${parsed.transactionHash} but transactionHash is ${event.transactionHash}`,
    );
  return problems;
}

/** The first pair of neighbours not newest first (block, then log index, descending), or undefined. */
export function notNewestFirst(events: Pick<Event, "id" | "blockNumber">[]): string | undefined {
  for (let i = 1; i < events.length; i++) {
    const [newer, older] = [chainPosition(events[i - 1]!), chainPosition(events[i]!)];
    if (!newer || !older) continue; // a malformed id is its own problem
    if (newer[0] > older[0] || (newer[0] === older[0] && newer[1] > older[1])) continue;
    return (
      `event #${i} ${events[i - 1]!.id} (block ${newer[0]}, log ${newer[1]}) is listed before #${i + 1} ` +
      `${events[i]!.id} (block ${older[0]}, log ${older[1]})`
    );
  }
  return undefined;
}

/** The first event later than the one listed before it, or undefined. */
export function timestampRises(events: Pick<Event, "id" | "timestamp">[]): string | undefined {
  const at = events.findIndex((event, i) => i > 0 && event.timestamp > events[i - 1]!.timestamp);
  if (at === -1) return undefined;
  return (
    `event #${at + 1} (${events[at]!.id}, ${events[at]!.timestamp}) is later than #${at} ` +
    `(${events[at - 1]!.id}, ${events[at - 1]!.timestamp})`
  );
}

/** Where an event does not name the item asked for, or its itemRef disagrees with what it names. */
export function itemProblems(event: Event, address: string, tokenId: number): string[] {
  const show = JSON.stringify;
  const where = `event ${event.id}`;
  const problems: string[] = [];
  if (event.itemCollection !== address)
    problems.push(`${where}: itemCollection ${show(event.itemCollection)}, expected ${show(address)}`);
  if (event.tokenId !== tokenId) problems.push(`${where}: tokenId ${show(event.tokenId)}, expected ${tokenId}`);
  const ref = `${event.chainId}-${event.itemCollection}-${event.tokenId}`;
  if (event.itemRef !== ref) problems.push(`${where}: itemRef ${show(event.itemRef)}, expected ${show(ref)}`);
  return problems;
}

/** What one page of an item's history breaks. */
export function historyPageProblems(request: PageRequest, events: Event[]): string[] {
  const problems: string[] = [];
  const { perPage, page } = pagingIn(request, EVENTS_DEFAULTS);
  if (events.length > perPage) problems.push(`page ${page} holds ${events.length} events; perPage is ${perPage}`);
  if (page === 1 && events.length === 0)
    problems.push("the first page of an item's history is empty: every item has at least its mint");
  const unordered = notNewestFirst(events);
  if (unordered) problems.push(`${unordered}: history must be newest first`);
  const rising = timestampRises(events);
  if (rising) problems.push(`${rising}: timestamps never increase down a history`);
  for (const id of duplicates(events.map((event) => event.id))) problems.push(`id ${id} appears twice`);
  for (const event of events) problems.push(...idProblems(event));
  const [address, tokenId] = [request.params[0]![1].toLowerCase(), Number(request.params[1]![1])];
  for (const event of events) problems.push(...itemProblems(event, address, tokenId).slice(0, 1));
  const last = events.at(-1);
  if (last && events.length < perPage && !isMint(last))
    problems.push(
      `the last page ends with ${last.id} from ${last.from}, not the mint (a TransferSingle/TransferBatch from ` +
        `${ZERO_ADDRESS}); ${perPageSaid(request, perPage)}`,
    );
  return [...new Set(problems)];
}

/** What one page of the collection list breaks; `typed` reads a filter's value as its schema types it. */
export function listPageProblems(
  request: PageRequest,
  body: ListBody,
  typed: (name: string, value: string) => unknown,
): string[] {
  const problems: string[] = [];
  const { perPage, page } = pagingIn(request, DEFAULTS);
  const rows = body.collections.length;
  const expected = expectedPageLength(body.count, perPage, page);
  if (rows !== expected)
    problems.push(
      `page ${page} holds ${rows} collections with count ${body.count}; ${perPageSaid(request, perPage)} means ${expected}`,
    );
  const sortBy = given(request, "sortBy") ?? DEFAULTS.sortBy;
  const sortDir = (given(request, "sortDir") ?? DEFAULTS.sortDir) as Direction;
  const unordered = firstOutOfOrder(body.collections, sortBy as "address", sortDir);
  if (unordered) problems.push(`sorted by ${sortBy} ${sortDir}: ${unordered}`);
  for (const [name, value] of request.query) {
    if (NON_FILTER_PARAMETERS.includes(name) || name === "isVerified") continue;
    const wanted = typed(name, value);
    const matches = (actual: unknown) =>
      name === "address" || name === "ownerAddress" ? actual === String(wanted).toLowerCase() : actual === wanted;
    const stray = body.collections.find((collection) => !matches(collection[name]));
    if (stray)
      problems.push(
        `filtered by ${name}=${value}: ${stray.address} has ${name} ${JSON.stringify(stray[name])}, not a match`,
      );
  }
  return problems;
}
