export type Direction = "asc" | "desc";

/** Numbers by value, strings by UTF-16 code units (ISO dates sort as time), as the simulator sorts. */
export function compareValues(a: unknown, b: unknown): number {
  if (typeof a === "number" && typeof b === "number") return a - b;
  const x = String(a);
  const y = String(b);
  return x < y ? -1 : x > y ? 1 : 0;
}

/**
 * The first neighbour pair not sorted by `field` in `direction`, ties broken by address ascending; undefined when
 * sorted.
 */
export function firstOutOfOrder<T extends { address: string }>(
  rows: T[],
  field: keyof T & string,
  direction: Direction,
): string | undefined {
  const sign = direction === "asc" ? 1 : -1;
  for (let i = 1; i < rows.length; i++) {
    const [before, after] = [rows[i - 1]!, rows[i]!];
    const byField = sign * compareValues(before[field], after[field]);
    if (byField > 0) {
      return `#${i} ${describeRow(before, field)} comes before #${i + 1} ${describeRow(after, field)}, not in ${field} ${direction} order`;
    }
    if (byField === 0 && compareValues(before.address, after.address) > 0) {
      return `#${i} and #${i + 1} tie on ${field} (${JSON.stringify(before[field])}) but are not in address order: ${before.address} before ${after.address}`;
    }
  }
  return undefined;
}

function describeRow<T extends { address: string }>(row: T, field: keyof T & string): string {
  return `(${row.address}, ${field} ${JSON.stringify(row[field])})`;
}

const TRANSFER_ID = /^(TransferSingle|TransferBatch)-([0-9]+)-([0-9]+)$/;
const MARKET_ID =
  /^(ItemListed|ItemDelisted|ItemPriceUpdated|ItemAdded|ItemRemoved|Swapped)-([0-9]+)-(0x[0-9a-f]{64})-([0-9]+)$/;

/**
 * What an event id says: transfers `<Event>-<block>-<logIndex>`, marketplace `<Event>-<listingId>-<txHash>-<logIndex>`.
 */
export function parseEventId(id: string) {
  const transfer = TRANSFER_ID.exec(id);
  if (transfer)
    return {
      kind: "transfer" as const,
      event: transfer[1]!,
      blockNumber: Number(transfer[2]),
      logIndex: Number(transfer[3]),
    };
  const market = MARKET_ID.exec(id);
  if (market)
    return {
      kind: "market" as const,
      event: market[1]!,
      listingId: market[2]!,
      transactionHash: market[3]!,
      logIndex: Number(market[4]),
    };
  return undefined;
}

/** Where an event sits on the chain: its block, then its log index (from its id). */
export function chainPosition(event: { id: string; blockNumber: number }): [number, number] | undefined {
  const parsed = parseEventId(event.id);
  return parsed && [event.blockNumber, parsed.logIndex];
}
