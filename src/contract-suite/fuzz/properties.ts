import { numberIn, perPageSaid, type ListBody } from "../answers/page-rules.ts";
import { expectedPageLength } from "../checks/expect.ts";
import { DEFAULTS, EVENTS_DEFAULTS, LARGEST_PAGE, paths } from "../target.ts";
import { itemKeyOf, wholeHistory } from "./digest.ts";
import type { FuzzRequest } from "./requests.ts";

// What every 200 must also be, beyond what its own answer shows, when the request conformed: the
// page the paging asked for of the item's whole history, and the same rows a wider first page
// shows at that place (pages never overlap nor skip).

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

/** What only the item's whole history shows of one page: how many events it should hold. */
function historyLengthProblems(request: FuzzRequest, events: unknown[], total: number | undefined): string[] {
  const perPage = numberIn(request, "perPage", EVENTS_DEFAULTS.perPage);
  const page = numberIn(request, "page", EVENTS_DEFAULTS.page);
  const expected = total === undefined ? events.length : expectedPageLength(total, perPage, page);
  if (events.length === expected) return [];
  return [`page ${page} holds ${events.length} events of ${total}; ${perPageSaid(request, perPage)} means ${expected}`];
}

/** What only a wider first page shows of one page of the list: the same rows at that place. */
async function listOverlapProblems(base: string, request: FuzzRequest, body: ListBody): Promise<string[]> {
  const problems: string[] = [];
  const perPage = numberIn(request, "perPage", DEFAULTS.perPage);
  const page = numberIn(request, "page", DEFAULTS.page);
  const rows = body.collections.length;
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

/**
 * What a 200 to a conforming request breaks of the paging rules that take more than its own answer to see (what one
 * answer shows is answers/answer-checks.ts's).
 */
export async function semanticProblems(
  base: string,
  request: FuzzRequest,
  json: unknown,
  lengths: HistoryLengths,
): Promise<string[]> {
  switch (request.operation) {
    case "getItemEvents": {
      const [address, tokenId] = [request.params[0]![1], Number(request.params[1]![1])];
      return historyLengthProblems(request, (json as { events: unknown[] }).events, await lengths.of(address, tokenId));
    }
    case "listCollections":
      return listOverlapProblems(base, request, json as ListBody);
    default:
      return [];
  }
}
