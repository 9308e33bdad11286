import type { Probe } from "../check.ts";
import type { Exchange } from "../http.ts";
import { duplicates, sameSequence } from "./expect.ts";

export interface PageOf {
  exchange: Exchange;
  ids: string[];
}

/** A page size that splits `total` records into a handful of uneven pages. */
export function smallPageSize(total: number): number {
  return Math.max(2, Math.min(7, Math.ceil(total / 3)), Math.ceil(total / 8));
}

export function pageCount(total: number, perPage: number): number {
  return Math.ceil(total / perPage);
}

/** Pages 1..n of `perPage` must not share a record and must add up to `whole`, in order. */
export async function expectPagesPartition(
  probe: Probe,
  whole: string[],
  perPage: number,
  fetchPage: (page: number) => Promise<PageOf>,
): Promise<void> {
  const seen = new Map<string, number>();
  const joined: string[] = [];
  for (let page = 1; page <= pageCount(whole.length, perPage); page++) {
    const { exchange, ids } = await fetchPage(page);
    for (const id of duplicates(ids)) probe.fail(exchange, `page ${page} holds ${id} twice`);
    for (const id of ids) {
      const earlier = seen.get(id);
      if (earlier !== undefined && earlier !== page)
        probe.fail(exchange, `pages overlap: ${id} is on page ${earlier} and on page ${page} (perPage=${perPage})`);
      seen.set(id, page);
    }
    joined.push(...ids);
  }
  const mismatch = sameSequence(`pages 1..${pageCount(whole.length, perPage)} of ${perPage} joined`, joined, whole);
  if (mismatch) probe.fail(undefined, `${mismatch} (the whole was read as one page of ${whole.length})`);
}

/** How many records page `page` of `perPage` holds out of `total`. */
export function expectedPageLength(total: number, perPage: number, page: number): number {
  return Math.max(0, Math.min(perPage, total - (page - 1) * perPage));
}
