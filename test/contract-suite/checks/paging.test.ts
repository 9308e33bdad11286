import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { Probe } from "../../../src/contract-suite/check.ts";
import type { Exchange } from "../../../src/contract-suite/http.ts";
import {
  expectedPageLength,
  expectPagesPartition,
  pageCount,
  smallPageSize,
} from "../../../src/contract-suite/checks/expect.ts";

/** A probe that records what the check finds (the paging helpers use nothing else of it). */
function recordingProbe(): { probe: Probe; found: { request?: string; message: string }[] } {
  const found: { request?: string; message: string }[] = [];
  const probe = {
    fail: (exchange: Exchange | undefined, message: string) => void found.push({ request: exchange?.request, message }),
  } as Probe;
  return { probe, found };
}

const exchangeOf = (page: number) => ({ request: `GET /list?page=${page}` }) as Exchange;

describe("page sizes", () => {
  it("splits a total into a handful of uneven pages: at least 2 records, at most 7 or an eighth", () => {
    expect([0, 1, 2, 6, 7, 21, 22, 56, 57, 100].map(smallPageSize)).toEqual([2, 2, 2, 2, 3, 7, 7, 7, 8, 13]);
  });

  it("counts the pages of a total and the records on each", () => {
    expect([pageCount(0, 7), pageCount(7, 7), pageCount(8, 7), pageCount(22, 7)]).toEqual([0, 1, 2, 4]);
    expect([1, 2, 3, 4, 5].map((page) => expectedPageLength(22, 7, page))).toEqual([7, 7, 7, 1, 0]);
    expect(expectedPageLength(0, 7, 1)).toBe(0);
    expect(expectedPageLength(7, 7, 2)).toBe(0);
  });

  it("the lengths of the pages add up to the total", () => {
    fc.assert(
      fc.property(fc.nat(300), fc.integer({ min: 1, max: 100 }), (total, perPage) => {
        const pages = pageCount(total, perPage);
        const lengths = Array.from({ length: pages + 1 }, (_, i) => expectedPageLength(total, perPage, i + 1));
        expect(lengths.reduce((sum, n) => sum + n, 0)).toBe(total);
        expect(lengths.at(-1)).toBe(0);
        if (pages > 0) expect(lengths[pages - 1]).toBeGreaterThan(0);
      }),
    );
  });
});

describe("expectPagesPartition", () => {
  const whole = ["a", "b", "c", "d", "e"];
  const pagesOf = (pages: string[][]) => async (page: number) => ({
    exchange: exchangeOf(page),
    ids: pages[page - 1] ?? [],
  });

  it("finds nothing when pages 1..n of perPage join to the whole", async () => {
    const { probe, found } = recordingProbe();
    await expectPagesPartition(probe, whole, 2, pagesOf([["a", "b"], ["c", "d"], ["e"]]));
    expect(found).toEqual([]);
  });

  it("asks for exactly the pages the whole needs", async () => {
    const asked: number[] = [];
    const { probe } = recordingProbe();
    await expectPagesPartition(probe, whole, 2, async (page) => {
      asked.push(page);
      return { exchange: exchangeOf(page), ids: whole.slice((page - 1) * 2, page * 2) };
    });
    expect(asked).toEqual([1, 2, 3]);
  });

  it("names a record repeated on one page, a record on two pages, and what the joined pages miss", async () => {
    const { probe, found } = recordingProbe();
    await expectPagesPartition(probe, whole, 2, pagesOf([["a", "a"], ["a", "c"], ["d"]]));
    expect(found).toEqual([
      { request: "GET /list?page=1", message: "page 1 holds a twice" },
      { request: "GET /list?page=2", message: "pages overlap: a is on page 1 and on page 2 (perPage=2)" },
      { message: "pages 1..3 of 2 joined: record #2 is a, expected b (the whole was read as one page of 5)" },
    ]);
  });

  it("names pages that join to fewer records than the whole", async () => {
    const { probe, found } = recordingProbe();
    await expectPagesPartition(probe, whole, 2, pagesOf([["a", "b"], ["c", "d"], []]));
    expect(found).toEqual([
      { message: "pages 1..3 of 2 joined: 4 records, expected 5 (the whole was read as one page of 5)" },
    ]);
  });
});
