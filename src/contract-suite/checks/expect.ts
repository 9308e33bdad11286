import type { Probe } from "../check.ts";
import type { Exchange } from "../http.ts";
import type { BodyCheck } from "../schemas.ts";

export function expectStatus(probe: Probe, exchange: Exchange, status: number): boolean {
  if (exchange.status === status) return true;
  probe.fail(exchange, `answered ${exchange.status}, expected ${status}${bodyHint(exchange)}`);
  return false;
}

export function expectJsonBody(probe: Probe, exchange: Exchange, bodyCheck: BodyCheck, schemaName: string): void {
  if (exchange.json === undefined) {
    probe.fail(exchange, `the body is not JSON (content-type '${exchange.contentType}'): ${snippet(exchange.text)}`);
    return;
  }
  for (const problem of bodyCheck(exchange.json)) probe.fail(exchange, `${problem} (schema ${schemaName})`);
}

/** Status and schema of a success answer, as one check. */
export function expectOk(probe: Probe, exchange: Exchange, bodyCheck: BodyCheck, schemaName: string): void {
  expectStatus(probe, exchange, 200);
  expectJsonBody(probe, exchange, bodyCheck, schemaName);
}

function bodyHint(exchange: Exchange): string {
  return exchange.text ? `; body: ${snippet(exchange.text)}` : "";
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
