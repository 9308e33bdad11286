import { isDeepStrictEqual } from "node:util";
import { CollectionsResponse, type CollectionSummary } from "../../schemas/collection.ts";
import { check, type CheckGroup, type Probe } from "../check.ts";
import { cannotCheck } from "../stopped.ts";
import { firstOutOfOrder, type Direction } from "../order.ts";
import { DEFAULTS, LARGEST_PAGE, paths } from "../target.ts";
import { expectedPageLength, expectOk, expectPagesPartition, pageCount, smallPageSize } from "./expect.ts";

const identity = (collection: CollectionSummary) => `${collection.chainId}:${collection.address}`;

const SORTED_FIELDS = ["mintDate", "name", "holders", "volume_all", "chainId"] as const;
const FILTERED_FIELDS = ["chainId", "genre", "name"] as const;

export const collectionsListChecks: CheckGroup = {
  name: "GET /api/v2/collection",
  checks: [
    check("the default request answers 200 and a CollectionsResponse body", async (probe) => {
      expectOk(probe, await probe.api.get(paths.collections), CollectionsResponse);
    }),
    check("a full page (perPage=100) answers 200 and a CollectionsResponse body", async (probe) => {
      expectOk(probe, await probe.api.get(paths.collections, { perPage: LARGEST_PAGE, page: 1 }), CollectionsResponse);
    }),
    check("the default equals the explicit ?perPage=24&page=1&sortBy=mintDate&sortDir=desc", async (probe) => {
      const implicit = await probe.facts.list();
      const explicit = await probe.facts.list({ ...DEFAULTS });
      if (!isDeepStrictEqual(implicit.exchange.json, explicit.exchange.json))
        probe.fail(
          implicit.exchange,
          `differs from ${explicit.exchange.request}: ${implicit.collections.length} vs ` +
            `${explicit.collections.length} collections, count ${implicit.count} vs ${explicit.count}`,
        );
    }),
    check("the default page holds min(24, count) collections", async (probe) => {
      const { exchange, collections, count } = await probe.facts.list();
      const expected = Math.min(DEFAULTS.perPage, count);
      if (collections.length !== expected)
        probe.fail(
          exchange,
          `holds ${collections.length} collections with count ${count}; the default perPage 24 means ${expected}`,
        );
    }),
    check("the default order is mintDate descending, ties by address", async (probe) => {
      const { exchange, collections } = await probe.facts.list();
      const problem = firstOutOfOrder(collections, "mintDate", "desc");
      if (problem) probe.fail(exchange, problem);
    }),
    check("pages are disjoint and together equal the first page of 100", async (probe) => {
      const whole = (await probe.facts.sample()).collections.map(identity);
      const perPage = smallPageSize(whole.length);
      await expectPagesPartition(probe, whole, perPage, async (page) => {
        const { exchange, collections } = await probe.facts.list({ perPage, page });
        return { exchange, ids: collections.map(identity) };
      });
    }),
    check("count is the total on every page, and page lengths follow from it", async (probe) => {
      const sample = await probe.facts.sample();
      // `complete` means the page holds all `count`; short of that, it must be full.
      if (!sample.complete && sample.collections.length !== LARGEST_PAGE)
        probe.fail(
          sample.exchange,
          `count is ${sample.count} but a page of ${LARGEST_PAGE} holds only ${sample.collections.length}`,
        );
      const perPage = smallPageSize(sample.collections.length);
      const lastPage = pageCount(sample.count, perPage);
      for (const page of new Set([1, 2, lastPage, lastPage + 1].filter((page) => page >= 1))) {
        const { exchange, collections, count } = await probe.facts.list({ perPage, page });
        if (count !== sample.count)
          probe.fail(exchange, `count is ${count} here but ${sample.count} on ${sample.exchange.request}`);
        const expected = expectedPageLength(sample.count, perPage, page);
        if (collections.length !== expected)
          probe.fail(
            exchange,
            `page ${page} of ${perPage} holds ${collections.length} collections; count ${sample.count} means ${expected}`,
          );
      }
    }),
    ...SORTED_FIELDS.flatMap((field) =>
      (["asc", "desc"] as const).map((direction) =>
        check(`sortBy=${field}&sortDir=${direction} sorts, ties by address`, (probe) =>
          expectSorted(probe, field, direction),
        ),
      ),
    ),
    ...FILTERED_FIELDS.map((field) =>
      check(`the filter ${field}=<the known collection's ${field}> answers exactly the matches`, (probe) =>
        expectFilter(probe, field),
      ),
    ),
    check("a filter that matches nothing answers no collections and count 0", async (probe) => {
      const { exchange, collections, count } = await probe.facts.list({
        name: "contract-suite: no collection has this name",
      });
      if (collections.length !== 0 || count !== 0)
        probe.fail(exchange, `answered ${collections.length} collections and count ${count}`);
    }),
  ],
};

async function expectSorted(probe: Probe, field: (typeof SORTED_FIELDS)[number], direction: Direction): Promise<void> {
  const sample = await probe.facts.sample();
  const { exchange, collections, count } = await probe.facts.list({
    sortBy: field,
    sortDir: direction,
    perPage: LARGEST_PAGE,
  });
  const problem = firstOutOfOrder(collections, field, direction);
  if (problem) probe.fail(exchange, problem);
  if (count !== sample.count) probe.fail(exchange, `count is ${count}, but ${sample.count} in the default order`);
  if (sample.complete) {
    const sorted = new Set(collections.map(identity));
    const missing = sample.collections.map(identity).filter((id) => !sorted.has(id));
    if (missing.length)
      probe.fail(
        exchange,
        `sorting lost collections: ${missing.slice(0, 3).join(", ")}${missing.length > 3 ? ", …" : ""}`,
      );
  }
}

async function expectFilter(probe: Probe, field: (typeof FILTERED_FIELDS)[number]): Promise<void> {
  const { exchange: knownExchange, collection: known } = await probe.facts.collection();
  const wanted = known[field];
  if (typeof wanted !== (field === "chainId" ? "number" : "string")) {
    throw cannotCheck(
      `the known collection's ${field} ${JSON.stringify(wanted)} has the wrong type to filter by`,
      knownExchange.request,
    );
  }
  const { exchange, collections, count } = await probe.facts.list({ [field]: wanted, perPage: LARGEST_PAGE });
  const strays = collections.filter((collection) => collection[field] !== wanted);
  for (const stray of strays.slice(0, 3))
    probe.fail(
      exchange,
      `${stray.address} has ${field} ${JSON.stringify(stray[field])}, not ${JSON.stringify(wanted)}`,
    );
  if (count < collections.length)
    probe.fail(exchange, `count ${count} is below the ${collections.length} collections on the page`);
  if (count <= LARGEST_PAGE && !collections.some((collection) => collection.address === known.address))
    probe.fail(exchange, `the known collection ${known.address} (${field} ${JSON.stringify(wanted)}) is missing`);
  const sample = await probe.facts.sample();
  if (sample.complete) {
    const expected = sample.collections.filter((collection) => collection[field] === wanted).map(identity);
    if (count !== expected.length)
      probe.fail(
        exchange,
        `count is ${count}, but ${expected.length} of all ${sample.count} collections have ${field} ` +
          `${JSON.stringify(wanted)}`,
      );
    const answered = collections.map(identity);
    if (answered.join() !== expected.join())
      probe.fail(
        exchange,
        `answers ${answered.length} collections, not the ${expected.length} matches in the default order`,
      );
  }
}
