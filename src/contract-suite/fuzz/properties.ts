import { pagingIn, perPageSaid, type ListBody } from "../answers/page-rules.ts";
import { expectedPageLength } from "../checks/expect.ts";
import { DEFAULTS, EVENTS_DEFAULTS, LARGEST_PAGE, paths } from "../target.ts";
import { itemKeyOf, wholeHistory } from "./digest.ts";
import type { FuzzRequest } from "./requests.ts";

// What every 200 must also be, beyond what its own answer shows, when the request conformed: the
// page the paging asked for of the item's whole history, and the same rows a wider first page
// shows at that place (pages never overlap nor skip).

/**
 * The lengths of the whole histories the checks compare page sizes with, by item (itemKeyOf), each read once: a run's
 * mints add new items (an item it minted holds its mint alone), never events to known ones.
 */
export type HistoryLengths = Map<string, Promise<number | undefined>>;

/** What only the item's whole history shows of one page: how many events it should hold. */
function historyLengthProblems(request: FuzzRequest, events: unknown[], total: number | undefined): string[] {
  const { perPage, page } = pagingIn(request, EVENTS_DEFAULTS);
  const expected = total === undefined ? events.length : expectedPageLength(total, perPage, page);
  if (events.length === expected) return [];
  return [`page ${page} holds ${events.length} events of ${total}; ${perPageSaid(request, perPage)} means ${expected}`];
}

/** What only a wider first page shows of one page of the list: the same rows at that place. */
async function listOverlapProblems(base: string, request: FuzzRequest, body: ListBody): Promise<string[]> {
  const { perPage, page } = pagingIn(request, DEFAULTS);
  if (page < 2 || body.collections.length === 0 || page * perPage > LARGEST_PAGE) return [];
  const wide = new URLSearchParams(request.query.filter(([name]) => name !== "page" && name !== "perPage"));
  wide.set("perPage", String(page * perPage));
  const first = (await fetch(`${base}${paths.collections}?${wide}`).then((r) => r.json())) as ListBody;
  const expected = first.collections.slice((page - 1) * perPage).map((c) => c.address);
  const shown = body.collections.map((c) => c.address);
  if (JSON.stringify(shown) === JSON.stringify(expected)) return [];
  return [
    `page ${page} of ${perPage} shows ${shown.slice(0, 3).join(", ")}…, but the first page of ${page * perPage} ` +
      `shows ${expected.slice(0, 3).join(", ")}… there: pages overlap or skip`,
  ];
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
      const key = itemKeyOf(address, tokenId);
      const length = lengths.get(key) ?? wholeHistory(base, address, tokenId).then((events) => events?.length);
      lengths.set(key, length);
      return historyLengthProblems(request, (json as { events: unknown[] }).events, await length);
    }
    case "listCollections":
      return listOverlapProblems(base, request, json as ListBody);
    default:
      return [];
  }
}
