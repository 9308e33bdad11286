import { isDeepStrictEqual } from "node:util";
import { ItemEventsResponse, type ItemEvent } from "../../schemas/item-event.ts";
import { check, type CheckGroup } from "../check.ts";
import type { Query } from "../http.ts";
import {
  idProblems,
  isMint,
  itemProblems,
  notNewestFirst,
  timestampRises,
  ZERO_ADDRESS,
} from "../answers/page-rules.ts";
import { EVENTS_DEFAULTS, LARGEST_PAGE, paths } from "../target.ts";
import { duplicates, expectOk, expectPagesPartition, smallPageSize } from "./expect.ts";

/** A rule of the whole history (up to its first 100 events): what breaks it, or undefined. */
const historyRule = (name: string, rule: (events: ItemEvent[]) => string | undefined) =>
  check(name, async (probe) => {
    const { exchange, events } = await probe.facts.history();
    const problem = rule(events);
    if (problem) probe.fail(exchange, problem);
  });

/** The known item's history asked with `query` answers 200 and an ItemEventsResponse body. */
const answersOk = (name: string, query: Query) =>
  check(name, async (probe) => {
    const item = await probe.facts.item();
    const exchange = await probe.api.get(paths.itemEvents(item.collection, item.tokenId), query);
    expectOk(probe, exchange, ItemEventsResponse);
  });

export const itemEventsChecks: CheckGroup = {
  name: "GET /api/v2/item/events/:address/:tokenId",
  checks: [
    answersOk("the known item's history answers 200 and an ItemEventsResponse body", {}),
    answersOk("a full page (perPage=100) answers 200 and an ItemEventsResponse body", {
      perPage: LARGEST_PAGE,
      page: 1,
    }),
    check("the default equals the explicit ?perPage=24&page=1", async (probe) => {
      const item = await probe.facts.item();
      const implicit = await probe.facts.events(item);
      const explicit = await probe.facts.events(item, { perPage: EVENTS_DEFAULTS.perPage, page: EVENTS_DEFAULTS.page });
      if (!isDeepStrictEqual(implicit.exchange.json, explicit.exchange.json))
        probe.fail(
          implicit.exchange,
          `differs from ${explicit.exchange.request}: ${implicit.events.length} vs ${explicit.events.length} events`,
        );
    }),
    check("the default page holds min(24, history length) events", async (probe) => {
      const history = await probe.facts.history();
      const { exchange, events } = await probe.facts.events(await probe.facts.item());
      const expected = history.complete
        ? Math.min(EVENTS_DEFAULTS.perPage, history.events.length)
        : EVENTS_DEFAULTS.perPage;
      if (events.length !== expected)
        probe.fail(
          exchange,
          `holds ${events.length} events; the default perPage 24 and a history of ` +
            `${history.events.length}${history.complete ? "" : "+"} mean ${expected}`,
        );
    }),
    historyRule("events are newest first: block, then log index, descending", notNewestFirst),
    historyRule("timestamps never increase down the history", timestampRises),
    check("ids are well formed, unique and agree with the event's fields", async (probe) => {
      const { exchange, events } = await probe.facts.history();
      for (const id of duplicates(events.map((event) => event.id))) probe.fail(exchange, `id ${id} appears twice`);
      for (const event of events) for (const problem of idProblems(event)) probe.fail(exchange, problem);
    }),
    check(
      "itemCollection, tokenId and chainId name the item asked for, and itemRef agrees with them",
      async (probe) => {
        const item = await probe.facts.item();
        const chainId = await probe.facts.chainId();
        const { exchange, events } = await probe.facts.history();
        for (const event of events) {
          for (const problem of itemProblems(event, item.collection, item.tokenId)) probe.fail(exchange, problem);
          if (event.chainId !== chainId)
            probe.fail(exchange, `event ${event.id}: chainId ${JSON.stringify(event.chainId)}, expected ${chainId}`);
        }
      },
    ),
    check("the oldest event is the mint (a transfer from the zero address)", async (probe) => {
      const { exchange, events, complete } = await probe.facts.history();
      if (!complete) probe.skip(`the history is longer than ${LARGEST_PAGE} events`);
      const oldest = events.at(-1);
      if (!oldest) return probe.fail(exchange, "the history is empty");
      if (!isMint(oldest))
        probe.fail(
          exchange,
          `the oldest event is ${oldest.id} from ${oldest.from}, not a TransferSingle/TransferBatch from ` +
            `${ZERO_ADDRESS}`,
        );
    }),
    check("pages are disjoint and together equal the first page of 100", async (probe) => {
      const item = await probe.facts.item();
      const whole = (await probe.facts.history()).events.map((event) => event.id);
      const perPage = smallPageSize(whole.length);
      await expectPagesPartition(probe, whole, perPage, async (page) => {
        const { exchange, events } = await probe.facts.events(item, { perPage, page });
        return { exchange, ids: events.map((event) => event.id) };
      });
    }),
    check("the page after the last is empty", async (probe) => {
      const item = await probe.facts.item();
      const { events, complete } = await probe.facts.history();
      if (!complete) probe.skip(`the history is longer than ${LARGEST_PAGE} events`);
      const perPage = smallPageSize(events.length);
      const page = Math.ceil(events.length / perPage) + 1;
      const after = await probe.facts.events(item, { perPage, page });
      if (after.events.length !== 0)
        probe.fail(
          after.exchange,
          `page ${page} of ${perPage} holds ${after.events.length} events; a history of ${events.length} ends on ` +
            `page ${page - 1}`,
        );
    }),
  ],
};
