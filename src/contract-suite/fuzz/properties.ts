import { chainPosition, firstOutOfOrder, type Direction } from "../order.ts";
import { DEFAULTS, EVENTS_DEFAULTS, LARGEST_PAGE, paths } from "../target.ts";
import { itemKeyOf, wholeHistory } from "./digest.ts";
import type { FuzzRequest } from "./requests.ts";

// What every 200 must also be, beyond its schema, when the request conformed: the page the
// paging asked for (perPage given or its default, page), in the documented order (events newest
// first by block then log index; collections by sortBy/sortDir, ties by address), and the same
// rows a wider first page shows at that place (pages never overlap nor skip).

interface Event {
  id: string;
  blockNumber: number;
  itemCollection?: string;
  tokenId?: number;
}

interface ListBody {
  collections: { address: string }[];
  count: number;
}

/**
 * The whole histories the checks compare page sizes with, read once per item (a run's mints add new items, never events
 * to known ones).
 */
export class HistoryLengths {
  readonly #base: string;
  readonly #known = new Map<string, Promise<number | undefined>>();

  constructor(base: string) {
    this.#base = base;
  }

  of(address: string, tokenId: number): Promise<number | undefined> {
    const key = itemKeyOf(address, tokenId);
    let length = this.#known.get(key);
    if (!length)
      this.#known.set(key, (length = wholeHistory(this.#base, address, tokenId).then((events) => events?.length)));
    return length;
  }

  /** An item the run minted: its history is its mint. */
  minted(address: string, tokenId: number): void {
    this.#known.set(itemKeyOf(address, tokenId), Promise.resolve(1));
  }
}

const numberIn = (request: FuzzRequest, name: string, fallback: number) => {
  const value = request.query.find(([given]) => given === name)?.[1];
  return value === undefined ? fallback : Number(value);
};

/** How many rows a page holds: perPage, or what is left of the total from where the page starts. */
const expectedRows = (total: number, perPage: number, page: number) =>
  Math.max(0, Math.min(perPage, total - (page - 1) * perPage));

function historyProblems(request: FuzzRequest, events: Event[], total: number | undefined): string[] {
  const problems: string[] = [];
  const perPage = numberIn(request, "perPage", EVENTS_DEFAULTS.perPage);
  const page = numberIn(request, "page", EVENTS_DEFAULTS.page);
  const given = request.query.some(([name]) => name === "perPage")
    ? `perPage ${perPage}`
    : `the default perPage ${perPage}`;
  if (total !== undefined && events.length !== expectedRows(total, perPage, page)) {
    problems.push(
      `page ${page} holds ${events.length} events of ${total}; ${given} means ${expectedRows(total, perPage, page)}`,
    );
  }
  for (let i = 1; i < events.length; i += 1) {
    const [before, after] = [chainPosition(events[i - 1]!), chainPosition(events[i]!)];
    if (before && after && (before[0] < after[0] || (before[0] === after[0] && before[1] <= after[1]))) {
      problems.push(
        `event #${i} ${events[i - 1]!.id} (block ${before[0]}, log ${before[1]}) is listed before #${i + 1} ` +
          `${events[i]!.id} (block ${after[0]}, log ${after[1]}): history must be newest first`,
      );
      break;
    }
  }
  const [address, tokenId] = [request.params[0]![1].toLowerCase(), Number(request.params[1]![1])];
  const stranger = events.find(
    (event) => event.itemCollection !== undefined && (event.itemCollection !== address || event.tokenId !== tokenId),
  );
  if (stranger)
    problems.push(
      `event ${stranger.id} is of ${stranger.itemCollection}/${stranger.tokenId}, not of the item asked for`,
    );
  return problems;
}

async function listProblems(base: string, request: FuzzRequest, body: ListBody): Promise<string[]> {
  const problems: string[] = [];
  const perPage = numberIn(request, "perPage", DEFAULTS.perPage);
  const page = numberIn(request, "page", DEFAULTS.page);
  const given = request.query.some(([name]) => name === "perPage")
    ? `perPage ${perPage}`
    : `the default perPage ${perPage}`;
  const rows = body.collections.length;
  if (rows !== expectedRows(body.count, perPage, page))
    problems.push(
      `page ${page} holds ${rows} collections with count ${body.count}; ${given} means ` +
        `${expectedRows(body.count, perPage, page)}`,
    );
  const sortBy = request.query.find(([name]) => name === "sortBy")?.[1] ?? DEFAULTS.sortBy;
  const sortDir = (request.query.find(([name]) => name === "sortDir")?.[1] ?? DEFAULTS.sortDir) as Direction;
  const unordered = firstOutOfOrder(body.collections as { address: string }[], sortBy as "address", sortDir);
  if (unordered) problems.push(`sorted by ${sortBy} ${sortDir}: ${unordered}`);
  if (page >= 2 && rows > 0 && page * perPage <= LARGEST_PAGE) {
    const wide = new URLSearchParams(request.query.filter(([name]) => name !== "page" && name !== "perPage"));
    wide.set("perPage", String(page * perPage));
    const first = (await fetch(`${base}${paths.collections}?${wide}`).then((r) => r.json())) as ListBody;
    const expected = first.collections.slice((page - 1) * perPage).map((c) => c.address);
    const shown = body.collections.map((c) => c.address);
    if (JSON.stringify(shown) !== JSON.stringify(expected))
      problems.push(
        `page ${page} of ${perPage} shows ${shown.slice(0, 3).join(", ")}…, but the first page of ${page * perPage} ` +
          `shows ${expected.slice(0, 3).join(", ")}… there: pages overlap or skip`,
      );
  }
  return problems;
}

/** What a 200 to a conforming request breaks of the interface's paging and order rules. */
export async function semanticProblems(
  base: string,
  request: FuzzRequest,
  json: unknown,
  lengths: HistoryLengths,
): Promise<string[]> {
  switch (request.operation) {
    case "getItemEvents": {
      const [address, tokenId] = [request.params[0]![1], Number(request.params[1]![1])];
      return historyProblems(request, (json as { events: Event[] }).events, await lengths.of(address, tokenId));
    }
    case "listCollections":
      return listProblems(base, request, json as ListBody);
    case "getCollection": {
      const asked = request.params[0]![1].toLowerCase();
      const { address } = (json as { collection: { address: string } }).collection;
      return address === asked ? [] : [`asked for collection ${asked}, answered ${address}`];
    }
    default:
      return [];
  }
}
