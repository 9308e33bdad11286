import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { CollectionResponse, CollectionsResponse } from "../../src/schemas/collection.ts";
import { Fault, FaultList } from "../../src/schemas/fault-rule.ts";
import { ItemEventsResponse } from "../../src/schemas/item-event.ts";
import { responseValidator } from "../../src/schemas/validate.ts";

const snapshot = (path: string) =>
  JSON.parse(readFileSync(new URL(`../../fixtures/snapshots/${path}`, import.meta.url), "utf8"));
const { responses } = snapshot("index.json") as { responses: { url: string; status: number; file: string }[] };
/** A full first page of an item's history (24 events), as the default world's snapshots hold it. */
const historyPage = () => {
  const pages = responses.filter(
    ({ file, status }) => file.startsWith("item-events/") && file.endsWith("/page-1.json") && status === 200,
  );
  const full = pages.find(({ file }) => snapshot(file).events.length === 24);
  if (!full) throw new Error("the snapshots hold no full first page of an item's history");
  return snapshot(full.file);
};
const listPage = () => snapshot("collections/default/page-1.json");

describe("response validation", () => {
  const checkEvents = responseValidator(ItemEventsResponse);
  const checkList = responseValidator(CollectionsResponse);
  const checkCollection = responseValidator(CollectionResponse);

  it("passes a real response and leaves it as it was, unfrozen", () => {
    const body = historyPage();
    expect(checkEvents(body)).toBe(body);
    expect(Object.isFrozen(body.events[0])).toBe(false);
  });

  it("walks an unfrozen part again: a change after it passed is caught", () => {
    const body = historyPage();
    checkEvents(body);
    body.events[0].amount = "two";
    expect(() => checkEvents(body)).toThrow(/response\.events\.0\.amount must match pattern/);
  });

  it("passes a frozen part again, and a frozen part that passed in one form still fails in another", () => {
    const page = listPage();
    page.collections.forEach(Object.freeze);
    expect(checkList(page)).toBe(page);
    expect(checkList(page)).toBe(page);
    expect(() => checkCollection({ collection: page.collections[0] })).toThrow(/missing required field 'imageUrl'/);
  });

  it("fails loudly on a bad part, naming where it is", () => {
    const body = historyPage();
    body.events[2].chainId = "137";
    expect(() => checkEvents(body)).toThrow(
      /response failed its schema ItemEventsResponse: .*response\.events\.2\.chainId must be integer/,
    );
  });

  it("still checks the envelope and every new part when other parts passed before", () => {
    const body = historyPage();
    checkEvents(body);
    expect(() => checkEvents({ ...body, extra: 1 })).toThrow(/unknown field 'extra'/);
    const unchecked = { ...body.events[0], timestamp: -1 };
    expect(() => checkEvents({ events: [...body.events, unchecked] })).toThrow(/response\.events\.\d+\.timestamp/);
  });

  it("checks a collection as a list entry and as the single collection against each schema", () => {
    const page = listPage();
    expect(checkList(page)).toBe(page);
    // The list's form has no imageUrl; passing as a list entry must not let it pass as a single collection.
    expect(() => checkCollection({ collection: page.collections[0] })).toThrow(/missing required field 'imageUrl'/);
    expect(() => checkList({ ...page, collections: [{ ...page.collections[0], imageUrl: "" }] })).toThrow(
      /unknown field 'imageUrl'/,
    );
  });
});

describe("a response schema that another response holds", () => {
  it("compiles in either order: the list of fault rules first, then one rule (GET /_sim/faults before POST)", () => {
    const list = responseValidator(FaultList);
    const one = responseValidator(Fault);
    const rule = { id: "fault-1", match: { path: "/api/v2/**" }, effect: { status: 503 }, seed: 1, applied: 0 };
    expect(one(rule)).toBe(rule);
    expect(list({ faults: [rule] })).toEqual({ faults: [rule] });
    expect(() => one({ ...rule, applied: "0" } as never)).toThrow(/response failed its schema Fault/);
  });
});
