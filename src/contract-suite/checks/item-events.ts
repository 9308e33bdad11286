import { isDeepStrictEqual } from "node:util";
import type { ItemEvent } from "../../schemas/item-event.ts";
import { check, type CheckGroup, type Probe } from "../check.ts";
import { chainPosition, parseEventId } from "../order.ts";
import { bodyChecks } from "../schemas.ts";
import { EVENTS_DEFAULTS, LARGEST_PAGE, paths } from "../target.ts";
import { duplicates, expectOk } from "./expect.ts";
import { expectPagesPartition, smallPageSize } from "./paging.ts";

/** Mints come from it, burns go to it. */
const ZERO_ADDRESS = "0x0000000000000000000000000000000000000000";

export const itemEventsChecks: CheckGroup = {
  name: "GET /api/v2/item/events/:address/:tokenId",
  checks: [
    check("the known item's history answers 200 and an ItemEventsResponse body", async (probe) => {
      const item = await probe.facts.item();
      expectOk(
        probe,
        await probe.api.get(paths.itemEvents(item.collection, item.tokenId)),
        bodyChecks.itemEvents,
        "ItemEventsResponse",
      );
    }),
    check("a full page (perPage=100) answers 200 and an ItemEventsResponse body", async (probe) => {
      const item = await probe.facts.item();
      expectOk(
        probe,
        await probe.api.get(paths.itemEvents(item.collection, item.tokenId), { perPage: LARGEST_PAGE, page: 1 }),
        bodyChecks.itemEvents,
        "ItemEventsResponse",
      );
    }),
    check("the default equals the explicit ?perPage=24&page=1", async (probe) => {
      const item = await probe.facts.item();
      const implicit = await probe.facts.events(item);
      const explicit = await probe.facts.events(item, { perPage: EVENTS_DEFAULTS.perPage, page: EVENTS_DEFAULTS.page });
      if (!isDeepStrictEqual(implicit.exchange.json, explicit.exchange.json)) {
        probe.fail(
          implicit.exchange,
          `differs from ${explicit.exchange.request}: ${implicit.events.length} vs ${explicit.events.length} events`,
        );
      }
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
    check("events are newest first: block, then log index, descending", async (probe) => {
      const { exchange, events } = await probe.facts.history();
      expectNewestFirst(probe, exchange, events);
    }),
    check("timestamps never increase down the history", async (probe) => {
      const { exchange, events } = await probe.facts.history();
      const at = events.findIndex((event, i) => i > 0 && event.timestamp > events[i - 1]!.timestamp);
      if (at > 0)
        probe.fail(
          exchange,
          `event #${at + 1} (${events[at]!.id}, ${events[at]!.timestamp}) is later than #${at} ` +
            `(${events[at - 1]!.id}, ${events[at - 1]!.timestamp})`,
        );
    }),
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
          const where = `event ${event.id}`;
          const show = JSON.stringify;
          if (event.itemCollection !== item.collection)
            probe.fail(
              exchange,
              `${where}: itemCollection ${show(event.itemCollection)}, expected ${show(item.collection)}`,
            );
          if (event.tokenId !== item.tokenId)
            probe.fail(exchange, `${where}: tokenId ${show(event.tokenId)}, expected ${item.tokenId}`);
          if (event.chainId !== chainId)
            probe.fail(exchange, `${where}: chainId ${show(event.chainId)}, expected ${chainId}`);
          const ref = `${event.chainId}-${event.itemCollection}-${event.tokenId}`;
          if (event.itemRef !== ref)
            probe.fail(exchange, `${where}: itemRef ${show(event.itemRef)}, expected ${show(ref)}`);
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

export function isMint(event: ItemEvent): boolean {
  return (event.event === "TransferSingle" || event.event === "TransferBatch") && event.from === ZERO_ADDRESS;
}

function expectNewestFirst(probe: Probe, exchange: Parameters<Probe["fail"]>[0], events: ItemEvent[]): void {
  for (let i = 1; i < events.length; i++) {
    const [newer, older] = [chainPosition(events[i - 1]!), chainPosition(events[i]!)];
    if (!newer || !older) continue; // a malformed id is its own check
    const after = newer[0] > older[0] || (newer[0] === older[0] && newer[1] > older[1]);
    if (!after) {
      probe.fail(
        exchange,
        `event #${i} ${events[i - 1]!.id} (block ${newer[0]}, log ${newer[1]}) is listed before #${i + 1} ` +
          `${events[i]!.id} (block ${older[0]}, log ${older[1]})`,
      );
      return;
    }
  }
}

function idProblems(event: ItemEvent): string[] {
  const parsed = parseEventId(event.id);
  if (!parsed)
    return [
      `id ${JSON.stringify(event.id)} is neither <Event>-<block>-<logIndex> nor ` +
        `<Event>-<listingId>-<txHash>-<logIndex>`,
    ];
  const problems: string[] = [];
  if (parsed.event !== event.event)
    problems.push(`id ${event.id} names ${parsed.event} but the event is ${event.event}`);
  if (parsed.kind === "transfer" && parsed.blockNumber !== event.blockNumber)
    problems.push(`id ${event.id} names block ${parsed.blockNumber} but blockNumber is ${event.blockNumber}`);
  if (parsed.kind === "market" && parsed.transactionHash !== event.transactionHash)
    problems.push(
      `id ${event.id} names transaction ${parsed.transactionHash} but transactionHash is ${event.transactionHash}`,
    );
  return problems;
}
