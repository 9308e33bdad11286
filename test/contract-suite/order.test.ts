import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { chainPosition, compareValues, firstOutOfOrder, parseEventId } from "../../src/contract-suite/order.ts";

const HASH = `0x${"ab".repeat(32)}`;

describe("compareValues", () => {
  it("orders numbers by value and anything else by its text's code units", () => {
    expect(compareValues(2, 10)).toBeLessThan(0);
    expect(compareValues(10, 2)).toBeGreaterThan(0);
    expect(compareValues(3, 3)).toBe(0);
    expect(compareValues("10", "2")).toBe(-1);
    expect(compareValues("b", "a")).toBe(1);
    expect(compareValues("a", "a")).toBe(0);
    expect(compareValues("B", "a")).toBe(-1);
    expect(compareValues(10, "9")).toBe(-1);
    expect(compareValues("2024-01-02T00:00:00.000Z", "2024-01-10T00:00:00.000Z")).toBe(-1);
  });

  it("is a consistent order: antisymmetric, zero only between equals", () => {
    const value = fc.oneof(fc.integer({ min: -1000, max: 1000 }), fc.string({ maxLength: 4 }));
    fc.assert(
      fc.property(value, value, (a, b) => {
        expect(Math.sign(compareValues(a, b))).toBe(-Math.sign(compareValues(b, a)) || 0);
        expect(compareValues(a, b) === 0).toBe(typeof a === typeof b ? a === b : String(a) === String(b));
      }),
    );
  });
});

describe("firstOutOfOrder", () => {
  const row = (address: string, holders: number, name = "n") => ({ address, holders, name });
  const a = row("0xa", 5);
  const b = row("0xb", 5);
  const c = row("0xc", 9);

  it("finds nothing in rows sorted by the field, ties by address ascending, either way", () => {
    expect(firstOutOfOrder([a, b, c], "holders", "asc")).toBeUndefined();
    expect(firstOutOfOrder([c, a, b], "holders", "desc")).toBeUndefined();
    expect(firstOutOfOrder([], "holders", "asc")).toBeUndefined();
    expect(firstOutOfOrder([c], "holders", "desc")).toBeUndefined();
    // A row listed twice breaks no order: the paging checks are what find repeats.
    expect(firstOutOfOrder([a, a], "holders", "asc")).toBeUndefined();
  });

  it("names the first pair out of the field's order", () => {
    expect(firstOutOfOrder([a, c, b], "holders", "asc")).toBe(
      "#2 (0xc, holders 9) comes before #3 (0xb, holders 5), not in holders asc order",
    );
    expect(firstOutOfOrder([a, b, c], "holders", "desc")).toBe(
      "#2 (0xb, holders 5) comes before #3 (0xc, holders 9), not in holders desc order",
    );
  });

  it("names a tie broken the wrong way, in either direction of the field", () => {
    for (const direction of ["asc", "desc"] as const)
      expect(firstOutOfOrder([b, a], "holders", direction)).toBe(
        "#1 and #2 tie on holders (5) but are not in address order: 0xb before 0xa",
      );
    expect(firstOutOfOrder([c, b, a], "holders", "desc")).toBe(
      "#2 and #3 tie on holders (5) but are not in address order: 0xb before 0xa",
    );
  });

  it("agrees with sorting: rows sorted by (field, address) pass, and any swap of two that differ is found", () => {
    const rows = fc.uniqueArray(
      fc.record({
        address: fc.constantFrom("0x1", "0x2", "0x3", "0x4", "0x5", "0x6"),
        holders: fc.integer({ min: 0, max: 3 }),
      }),
      { selector: (r) => r.address, minLength: 2 },
    );
    fc.assert(
      fc.property(rows, fc.constantFrom("asc" as const, "desc" as const), fc.nat(), (drawn, direction, pick) => {
        const sign = direction === "asc" ? 1 : -1;
        const sorted = [...drawn].sort((x, y) => sign * (x.holders - y.holders) || (x.address < y.address ? -1 : 1));
        expect(firstOutOfOrder(sorted, "holders", direction)).toBeUndefined();
        const i = pick % (sorted.length - 1);
        const swapped = [...sorted];
        [swapped[i], swapped[i + 1]] = [swapped[i + 1]!, swapped[i]!];
        expect(firstOutOfOrder(swapped, "holders", direction)).toMatch(new RegExp(`^#${i + 1} `));
      }),
    );
  });
});

describe("parseEventId", () => {
  it("reads a transfer's id: event, block, log index", () => {
    expect(parseEventId("TransferSingle-24406454-18")).toEqual({
      kind: "transfer",
      event: "TransferSingle",
      blockNumber: 24406454,
      logIndex: 18,
    });
    expect(parseEventId("TransferBatch-1-0")).toEqual({
      kind: "transfer",
      event: "TransferBatch",
      blockNumber: 1,
      logIndex: 0,
    });
  });

  it("reads a marketplace event's id: event, listing, transaction, log index", () => {
    for (const event of ["ItemListed", "ItemDelisted", "ItemPriceUpdated", "ItemAdded", "ItemRemoved", "Swapped"])
      expect(parseEventId(`${event}-35068-${HASH}-19`)).toEqual({
        kind: "market",
        event,
        listingId: "35068",
        transactionHash: HASH,
        logIndex: 19,
      });
  });

  it.each([
    ["no log index", "TransferSingle-24406454"],
    ["colons", "TransferSingle:1:2"],
    ["an unknown event", "Transfer-1-2"],
    ["letters for a number", "TransferSingle-1a-2"],
    ["something after it", "TransferSingle-1-2-3"],
    ["something before it", "xTransferSingle-1-2"],
    ["a market event without its hash", "ItemListed-35068-19"],
    ["a short hash", `ItemListed-1-0x${"ab".repeat(20)}-19`],
    ["a hash in upper case", `Swapped-1-0x${"AB".repeat(32)}-19`],
    ["a transfer written as a market event", `TransferSingle-1-${HASH}-19`],
    ["a market event written as a transfer", "Swapped-1-2"],
    ["a market event with something after it", `Swapped-1-${HASH}-19-1`],
    ["a market event with something before it", `xSwapped-1-${HASH}-19`],
    ["nothing", ""],
  ])("refuses an id with %s", (_what, id) => {
    expect(parseEventId(id)).toBeUndefined();
  });
});

describe("chainPosition", () => {
  it("is the event's block and its id's log index; nothing for a malformed id", () => {
    expect(chainPosition({ id: "TransferSingle-7-3", blockNumber: 7 })).toEqual([7, 3]);
    expect(chainPosition({ id: `Swapped-2-${HASH}-5`, blockNumber: 9 })).toEqual([9, 5]);
    expect(chainPosition({ id: "TransferSingle:7:3", blockNumber: 7 })).toBeUndefined();
  });
});

describe("order helpers", () => {
  it("find the first pair out of order, ties broken by address", () => {
    const rows = [
      { address: "0x02", holders: 3 },
      { address: "0x01", holders: 2 },
      { address: "0x03", holders: 2 },
    ];
    expect(firstOutOfOrder(rows, "holders", "desc")).toBeUndefined();
    expect(firstOutOfOrder(rows, "holders", "asc")).toBe(
      `#1 (0x02, holders 3) comes before #2 (0x01, holders 2), not in holders asc order`,
    );
    expect(firstOutOfOrder([rows[2]!, rows[1]!], "holders", "desc")).toMatch(
      /^#1 and #2 tie on holders \(2\) but are not in address order/,
    );
  });

  it("read both kinds of event id", () => {
    const hash = `0x${"ab".repeat(32)}`;
    expect(parseEventId("TransferSingle-24406454-18")).toEqual({
      kind: "transfer",
      event: "TransferSingle",
      blockNumber: 24406454,
      logIndex: 18,
    });
    expect(parseEventId(`ItemListed-35068-${hash}-19`)).toEqual({
      kind: "market",
      event: "ItemListed",
      listingId: "35068",
      transactionHash: hash,
      logIndex: 19,
    });
    expect(parseEventId("ItemListed-35068-19")).toBeUndefined();
  });
});
