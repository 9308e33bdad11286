import type { Probe } from "../check.ts";
import type { Exchange } from "../http.ts";
import type { TSchema } from "@sinclair/typebox";
import { bodyProblems } from "../schemas.ts";

export function expectStatus(probe: Probe, exchange: Exchange, status: number): boolean {
  if (exchange.status === status) return true;
  const hint = exchange.text ? `; body: ${snippet(exchange.text)}` : "";
  probe.fail(exchange, `answered ${exchange.status}, expected ${status}${hint}`);
  return false;
}

/** The body is JSON its response schema (named by its $id) accepts. */
export function expectJsonBody(probe: Probe, exchange: Exchange, schema: TSchema): void {
  if (exchange.json === undefined) {
    probe.fail(exchange, `the body is not JSON (content-type '${exchange.contentType}'): ${snippet(exchange.text)}`);
    return;
  }
  for (const problem of bodyProblems(schema, exchange.json)) probe.fail(exchange, `${problem} (schema ${schema.$id})`);
}

/** Status and schema of a success answer, as one check. */
export function expectOk(probe: Probe, exchange: Exchange, schema: TSchema): void {
  expectStatus(probe, exchange, 200);
  expectJsonBody(probe, exchange, schema);
}

export function snippet(text: string, length = 200): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > length ? `${flat.slice(0, length)}…` : flat;
}

/** Lists of records compared by identity; answers what differs, or undefined. */
export function sameSequence(label: string, actual: string[], expected: string[]): string | undefined {
  if (actual.length !== expected.length) return `${label}: ${actual.length} records, expected ${expected.length}`;
  const at = actual.findIndex((id, i) => id !== expected[i]);
  return at === -1 ? undefined : `${label}: record #${at + 1} is ${actual[at]}, expected ${expected[at]}`;
}

export function duplicates(ids: string[]): string[] {
  const seen = new Set<string>();
  return [...new Set(ids.filter((id) => seen.has(id) || !seen.add(id)))];
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
  fetchPage: (page: number) => Promise<{ exchange: Exchange; ids: string[] }>,
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
