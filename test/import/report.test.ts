import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { LiveAnswer } from "../../src/import/polite-fetch.ts";
import { fidelityReport, reportLines, UNREPRODUCIBLE } from "../../src/import/report.ts";

// The local side of the comparison: a server on 127.0.0.1 answering each path with what `local` holds for it.

const local = new Map<string, { status: number; body: string }>();
let server: Server;
let localBase: string;
const LIVE = "https://live.example";

beforeAll(async () => {
  server = createServer((request, response) => {
    const { status, body } = local.get(request.url!) ?? { status: 404, body: '{"error":"NOT_FOUND"}' };
    response.writeHead(status, { "content-type": "application/json" }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  localBase = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const live = (path: string, body: unknown, status = 200): LiveAnswer => ({
  url: `${LIVE}${path}`,
  status,
  contentType: "application/json",
  text: JSON.stringify(body),
});
const toLocal = (url: string) => url.replace(LIVE, localBase);

describe("fidelityReport", () => {
  it("is faithful when only fields a replay cannot make equal differ, each counted with why", async () => {
    local.set("/a", { status: 200, body: JSON.stringify({ events: [{ from: "0x2", amount: "3" }, { from: "0x4" }] }) });
    local.set("/b", { status: 200, body: JSON.stringify({ name: "Same" }) });
    const report = await fidelityReport(
      [live("/a", { events: [{ from: "0x1", amount: "3" }, { from: "0x3" }] }), live("/b", { name: "Same" })],
      LIVE,
      localBase,
      toLocal,
    );
    expect(report).toMatchObject({ base: LIVE, local: localBase, answers: 2, equal: 1, faithful: true });
    expect(report.fields).toEqual({ from: { count: 2, why: UNREPRODUCIBLE.from } });
    expect(report.entries[0]).toMatchObject({
      url: `${LIVE}/a`,
      localUrl: `${localBase}/a`,
      equal: false,
      differences: [
        { path: "events[0].from", live: "0x1", local: "0x2", why: UNREPRODUCIBLE.from },
        { path: "events[1].from", live: "0x3", local: "0x4", why: UNREPRODUCIBLE.from },
      ],
    });
  });

  it("is not faithful when anything else differs: a status, a value, a missing field, a list's length", async () => {
    // Answers of the API: a field only the local one has is no metadata default there.
    local.set("/api/v2/c", { status: 200, body: JSON.stringify({ amount: "2", list: [1], extra: true }) });
    const report = await fidelityReport(
      [live("/api/v2/c", { amount: "3", list: [1, 2] }), live("/api/v2/missing", { name: "Gone" })],
      LIVE,
      localBase,
      toLocal,
    );
    expect(report.faithful).toBe(false);
    expect(report.entries[0]!.differences).toEqual([
      { path: "amount", live: "3", local: "2" },
      { path: "list.length", live: 2, local: 1 },
      { path: "extra", live: undefined, local: true },
    ]);
    expect(report.entries[1]!.differences[0]).toEqual({ path: "(status)", live: 200, local: 404 });
    expect(report.fields.amount).toEqual({ count: 1 });
    // A field is named without the places of the lists it is in: a list's item counts as the list.
    local.set("/tags", { status: 200, body: JSON.stringify({ tags: ["b", "c"] }) });
    const tags = await fidelityReport([live("/tags", { tags: ["a", "c"] })], LIVE, localBase, toLocal);
    expect(tags.fields).toEqual({ tags: { count: 1 } });
  });

  it("compares a body that is no JSON as text", async () => {
    local.set("/text", { status: 200, body: "plain" });
    const report = await fidelityReport([{ ...live("/text", ""), text: "other" }], LIVE, localBase, toLocal);
    expect(report.entries[0]!.differences).toEqual([{ path: "(body)", live: "other", local: "plain" }]);
  });
});

describe("reportLines", () => {
  it("gives the totals, then each field most differing first, with why or as a defect", async () => {
    local.set("/d", {
      status: 200,
      body: JSON.stringify({ price: 2, from: "0x2", rows: [{ to: "0x2" }, { to: "0x3" }] }),
    });
    const report = await fidelityReport(
      [live("/d", { price: 1, from: "0x1", rows: [{ to: "0x1" }, { to: "0x1" }] })],
      LIVE,
      localBase,
      toLocal,
    );
    expect(reportLines(report)).toEqual([
      "1 answers compared, 0 equal",
      `  to: differs 2 times (${UNREPRODUCIBLE.to})`,
      "  price: differs 1 times (not expected: a defect of the import)",
      `  from: differs 1 times (${UNREPRODUCIBLE.from})`,
    ]);
  });
});
