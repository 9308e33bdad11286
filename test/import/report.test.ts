import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { LiveAnswer } from "../../src/import/polite-fetch.ts";
import { fidelityReport, LISTED_ANSWERS, reportLines, UNREPRODUCIBLE } from "../../src/import/report.ts";

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
    local.set("/a", { status: 200, body: JSON.stringify({ events: [{ transactionHash: "0x2", amount: "3" }, {}] }) });
    local.set("/b", { status: 200, body: JSON.stringify({ name: "Same" }) });
    const report = await fidelityReport(
      [
        live("/a", { events: [{ transactionHash: "0x1", amount: "3" }, { transactionHash: "0x3" }] }),
        live("/b", { name: "Same" }),
      ],
      LIVE,
      localBase,
      toLocal,
    );
    expect(report).toMatchObject({ base: LIVE, local: localBase, answers: 2, equal: 1, faithful: true });
    expect(report.fields).toEqual({ transactionHash: { count: 2, why: UNREPRODUCIBLE.transactionHash } });
    expect(report.entries[0]).toMatchObject({
      url: `${LIVE}/a`,
      localUrl: `${localBase}/a`,
      equal: false,
      differences: [
        { path: "events[0].transactionHash", live: "0x1", local: "0x2", why: UNREPRODUCIBLE.transactionHash },
        { path: "events[1].transactionHash", live: "0x3", local: undefined, why: UNREPRODUCIBLE.transactionHash },
      ],
    });
  });

  it("lists an account only where it is the escrow of another of the live marketplaces: every other account is the live one", async () => {
    // Live, this history's listing and sale went through a marketplace other than the one the world placed.
    const history = (escrow: string, hash: string, buyer = "0xb0b") => ({
      events: [
        { event: "Swapped", from: "0xa11ce", to: buyer, transactionHash: `${hash}2` },
        { event: "TransferSingle", from: escrow, to: buyer, transactionHash: `${hash}2` },
        { event: "ItemListed", from: "0xa11ce", to: "", transactionHash: `${hash}1` },
        { event: "TransferSingle", from: "0xa11ce", to: escrow, transactionHash: `${hash}1` },
      ],
    });
    local.set("/h", { status: 200, body: JSON.stringify(history("0xplacedmarket", "0x")) });
    const report = await fidelityReport([live("/h", history("0xothermarket", "0x"))], LIVE, localBase, toLocal);
    expect(report.faithful).toBe(true);
    expect(report.fields).toEqual({
      "marketplace escrow": { count: 2, why: LISTED_ANSWERS["marketplace escrow"].why },
    });
    expect(report.entries[0]!.differences.map(({ path }) => path)).toEqual(["events[1].from", "events[3].to"]);
    // A buyer that is not the live one is a defect, not an escrow.
    local.set("/h2", { status: 200, body: JSON.stringify(history("0xplacedmarket", "0x", "0xother")) });
    const wrong = await fidelityReport([live("/h2", history("0xothermarket", "0x"))], LIVE, localBase, toLocal);
    expect(wrong.faithful).toBe(false);
    expect(wrong.fields.to).toEqual({ count: 2 });
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
      body: JSON.stringify({ price: 2, from: "0x2", rows: [{ transactionHash: "0x2" }, { transactionHash: "0x3" }] }),
    });
    const report = await fidelityReport(
      [live("/d", { price: 1, from: "0x2", rows: [{ transactionHash: "0x1" }, { transactionHash: "0x1" }] })],
      LIVE,
      localBase,
      toLocal,
    );
    expect(reportLines(report)).toEqual([
      "1 answers compared, 0 equal",
      `  transactionHash: differs 2 times (${UNREPRODUCIBLE.transactionHash})`,
      "  price: differs 1 times (not expected: a defect of the import)",
    ]);
  });
});
