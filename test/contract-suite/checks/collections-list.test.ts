import { describe, expect, it } from "vitest";
import { runCheck, type CheckResult } from "../../../src/contract-suite/check.ts";
import { collectionsListChecks } from "../../../src/contract-suite/checks/collections-list.ts";
import type { Facts } from "../../../src/contract-suite/facts.ts";
import type { Api, Exchange, Query } from "../../../src/contract-suite/http.ts";

interface Row {
  address: string;
  chainId: number;
  name: string;
  genre: string;
  mintDate: string;
  holders: number;
  volume_all: number;
}

const row = (n: number, fields: Partial<Row> = {}): Row => ({
  address: `0x${n.toString(16).padStart(40, "0")}`,
  chainId: 56,
  name: `c${n}`,
  genre: "art",
  mintDate: new Date(Date.UTC(2024, 0, 1) - n * 60_000).toISOString(),
  holders: 1,
  volume_all: 0,
  ...fields,
});

const exchangeOf = (query: Query): Exchange =>
  ({ request: `GET /api/v2/collection?${new URLSearchParams(query as Record<string, string>)}` }) as Exchange;

/** A target whose list answers `answer(query)` and whose known collection is `known`; the sample is page 1 of 100. */
function target(answer: (query: Query) => { collections: Row[]; count: number }, known: Row) {
  const list = async (query: Query = {}) => ({ exchange: exchangeOf(query), ...answer(query) });
  const facts = {
    list,
    sample: async () => {
      const page = await list({ perPage: 100, page: 1 });
      return { ...page, complete: page.count <= 100 && page.collections.length === page.count };
    },
    collection: async () => ({ exchange: { request: "GET /api/v2/collection/known" } as Exchange, collection: known }),
  } as unknown as Facts;
  return (name: string): Promise<CheckResult> => {
    const check = collectionsListChecks.checks.find((candidate) => candidate.name === name);
    if (!check) throw new Error(`no check ${name}`);
    return runCheck(collectionsListChecks.name, check, {} as Api, facts);
  };
}

const messages = (result: CheckResult) => result.violations.map((violation) => violation.message);
const FILTER = (field: string) => `the filter ${field}=<the known collection's ${field}> answers exactly the matches`;
const COUNT = "count is the total on every page, and page lengths follow from it";

describe("the collection list's checks on hand-made answers", () => {
  it("cannot filter by a known collection's field of the wrong type", async () => {
    const known = row(1, { chainId: "56" as unknown as number, name: 5 as unknown as string });
    const run = target(() => ({ collections: [known], count: 1 }), known);
    expect(messages(await run(FILTER("chainId")))).toEqual([
      'cannot check: the known collection\'s chainId "56" has the wrong type to filter by',
    ]);
    expect(messages(await run(FILTER("name")))).toEqual([
      "cannot check: the known collection's name 5 has the wrong type to filter by",
    ]);
  });

  it("a filter's strays (the first three), a count below the page, and a known collection left out are each named", async () => {
    const known = row(0);
    const strays = [1, 2, 3, 4].map((n) => row(n, { genre: "music" }));
    const run = target(
      ({ genre }) => (genre ? { collections: strays, count: 2 } : { collections: [], count: 200 }),
      known,
    );
    expect(messages(await run(FILTER("genre")))).toEqual([
      ...strays.slice(0, 3).map((stray) => `${stray.address} has genre "music", not "art"`),
      "count 2 is below the 4 collections on the page",
      `the known collection ${known.address} (genre "art") is missing`,
    ]);
  });

  it("past a page of 100 matches, the known collection may be on a later page; at 100 it must be on the page", async () => {
    const known = row(0);
    const matches = Array.from({ length: 100 }, (_, n) => row(n + 1));
    const over = target(() => ({ collections: matches, count: 101 }), known);
    expect(messages(await over(FILTER("genre")))).toEqual([]);
    const whole = target(({ genre }) => ({ collections: matches, count: genre ? 100 : 101 }), known);
    expect(messages(await whole(FILTER("genre")))).toEqual([
      `the known collection ${known.address} (genre "art") is missing`,
    ]);
  });

  it("sorting that loses collections names the first three of them", async () => {
    const all = [1, 2, 3, 4, 5].map((n) => row(n));
    const run = target(
      ({ sortBy }) => (sortBy ? { collections: [all[0]!], count: 5 } : { collections: all, count: 5 }),
      all[0]!,
    );
    expect(messages(await run("sortBy=mintDate&sortDir=desc sorts, ties by address"))).toEqual([
      `sorting lost collections: ${all
        .slice(1, 4)
        .map((c) => `56:${c.address}`)
        .join(", ")}, …`,
    ]);
  });

  it("a count over a page of 100 it does not fill is named", async () => {
    const all = [1, 2, 3].map((n) => row(n));
    const run = target(({ perPage, page }) => {
      const size = Number(perPage ?? 24);
      const start = (Number(page ?? 1) - 1) * size;
      return { collections: all.slice(start, start + size), count: 500 };
    }, all[0]!);
    expect(messages(await run(COUNT))[0]).toBe("count is 500 but a page of 100 holds only 3");
  });

  it("with no collections, only page 1 of the small pages is asked, and it must be empty", async () => {
    const asked: Query[] = [];
    const run = target((query) => {
      asked.push(query);
      return { collections: [], count: 0 };
    }, row(0));
    expect(messages(await run(COUNT))).toEqual([]);
    expect(asked.map(({ page }) => page)).toEqual([1, 1, 2]);
  });

  it("a filter that matches nothing must answer neither a collection nor a count", async () => {
    const verdicts = [];
    for (const [collections, count] of [
      [[], 0],
      [[row(1)], 0],
      [[], 1],
    ] as const) {
      const run = target(() => ({ collections: [...collections], count }), row(1));
      verdicts.push(messages(await run("a filter that matches nothing answers no collections and count 0")));
    }
    expect(verdicts).toEqual([[], ["answered 1 collections and count 0"], ["answered 0 collections and count 1"]]);
  });

  it("past a full page of 100, sorting is judged by its order and count alone; three lost are named without a mark", async () => {
    const all = Array.from({ length: 100 }, (_, n) => row(n + 1));
    const partial = target(({ sortBy }) => ({ collections: sortBy ? all.slice(0, 99) : all, count: 101 }), all[0]!);
    expect(messages(await partial("sortBy=mintDate&sortDir=desc sorts, ties by address"))).toEqual([]);
    expect(messages(await partial(COUNT)).filter((message) => message.includes("a page of 100"))).toEqual([]);
    const few = all.slice(0, 5);
    const three = target(({ sortBy }) => ({ collections: sortBy ? few.slice(0, 2) : few, count: 5 }), few[0]!);
    expect(messages(await three("sortBy=mintDate&sortDir=desc sorts, ties by address"))).toEqual([
      `sorting lost collections: ${few
        .slice(2)
        .map((c) => `56:${c.address}`)
        .join(", ")}`,
    ]);
  });
});
