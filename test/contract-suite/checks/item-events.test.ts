import { describe, expect, it } from "vitest";
import { runCheck, type CheckResult } from "../../../src/contract-suite/check.ts";
import { itemEventsChecks } from "../../../src/contract-suite/checks/item-events.ts";
import type { Facts } from "../../../src/contract-suite/facts.ts";
import type { Api, Exchange } from "../../../src/contract-suite/http.ts";

const ITEM = { collection: "0x00000000000000000000000000000000000000c1", tokenId: 1 };
const exchange = { request: `GET /api/v2/item/events/${ITEM.collection}/1` } as Exchange;

/** A transfer of the item at `block`, from `from`. */
const transfer = (block: number, from: string) => ({
  id: `TransferSingle-${block}-0`,
  event: "TransferSingle",
  from,
  to: "0x0000000000000000000000000000000000000b0b",
  blockNumber: block,
});

/** A target whose first 100 events of the item are `events` (`complete`: all of them), and any later page `after`. */
function target(events: object[], complete: boolean, after: object[]) {
  const facts = {
    item: async () => ITEM,
    history: async () => ({ exchange, events, complete }),
    events: async () => ({ exchange, events: after }),
  } as unknown as Facts;
  return (name: string): Promise<CheckResult> => {
    const check = itemEventsChecks.checks.find((candidate) => candidate.name === name);
    if (!check) throw new Error(`no check ${name}`);
    return runCheck(itemEventsChecks.name, check, {} as Api, facts);
  };
}

const OLDEST_IS_MINT = "the oldest event is the mint (a transfer from the zero address)";
const PAGE_AFTER = "the page after the last is empty";

describe("the item history's checks on hand-made answers", () => {
  // The newest 100 events of a longer history: the oldest of them is no mint, and a page past them holds more.
  const longer = target([transfer(300, "0x0000000000000000000000000000000000000a11")], false, [transfer(200, "0x1")]);

  it("skip what only a whole history shows where the first 100 events are not all of it", async () => {
    for (const name of [OLDEST_IS_MINT, PAGE_AFTER]) {
      const result = await longer(name);
      expect(result, name).toMatchObject({ status: "skipped", violations: [] });
      expect(result.skipReason, name).toMatch(/the history is longer than 100 events/);
    }
  });

  it("expect a full default page of a history longer than the first 100 events, and say it is longer", async () => {
    const newest = Array.from({ length: 100 }, (_, i) =>
      transfer(400 - i, "0x0000000000000000000000000000000000000a11"),
    );
    const run = target(newest, false, newest.slice(0, 23));
    const result = await run("the default page holds min(24, history length) events");
    expect(result.violations.map((violation) => violation.message)).toEqual([
      "holds 23 events; the default perPage 24 and a history of 100+ mean 24",
    ]);
  });

  it("judge them on a whole history: an oldest event that is no mint, a page after the last that is not empty", async () => {
    const whole = target([transfer(300, "0x0000000000000000000000000000000000000a11")], true, [transfer(200, "0x1")]);
    expect((await whole(OLDEST_IS_MINT)).status).toBe("failed");
    expect((await whole(PAGE_AFTER)).status).toBe("failed");
  });
});
