import { describe, expect, it } from "vitest";
import type { CheckResult } from "../../src/contract-suite/check.ts";
import { redactApiKey } from "../../src/contract-suite/http.ts";
import { readSuiteOptions } from "../../src/cli/contract-test-options.ts";
import { START_ERRORS } from "../../src/core/errors.ts";
import { firstOutOfOrder, parseEventId } from "../../src/contract-suite/order.ts";
import { junitXml } from "../../src/contract-suite/report/junit.ts";
import { summary } from "../../src/contract-suite/report/summary.ts";
import type { SuiteReport } from "../../src/contract-suite/suite.ts";

const result = (overrides: Partial<CheckResult>): CheckResult => ({
  group: "errors",
  name: "a check",
  status: "passed",
  violations: [],
  durationMs: 1.5,
  ...overrides,
});

const report: SuiteReport = {
  baseUrl: "https://staging.example",
  startedAt: new Date("2026-01-02T03:04:05Z"),
  durationMs: 1234,
  results: [
    result({ name: "passes" }),
    result({
      name: `fails <with> "quotes" & more`,
      status: "failed",
      violations: [
        {
          message: "answered 500, expected 400 <b>\u0001",
          request: "GET https://staging.example/api/v2/collection?perPage=0&page=1",
        },
      ],
    }),
    result({ group: "writes", name: "skips", status: "skipped", skipReason: "writes are off" }),
  ],
};

describe("the JUnit report", () => {
  it("has one testsuite per group and one escaped testcase per check", () => {
    const xml = junitXml(report);
    expect(xml).toContain(
      `<testsuites name="contract-test https://staging.example" tests="3" failures="1" skipped="1" errors="0" time="1.234" timestamp="2026-01-02T03:04:05.000Z">`,
    );
    expect(xml).toContain(`<testsuite name="errors" tests="2" failures="1" skipped="0" errors="0" time="0.003">`);
    expect(xml).toContain(
      `<testcase classname="errors" name="fails &lt;with&gt; &quot;quotes&quot; &amp; more" time="0.002">`,
    );
    expect(xml).toContain(
      `<failure message="answered 500, expected 400 &lt;b&gt;\uFFFD" type="ContractViolation">answered 500, expected 400 &lt;b&gt;\uFFFD\n  request: GET https://staging.example/api/v2/collection?perPage=0&amp;page=1</failure>`,
    );
    expect(xml).toContain(`<skipped message="writes are off"/>`);
    expect(xml.match(/<testcase /g)).toHaveLength(3);
  });
});

describe("the summary", () => {
  it("names each violation with its request, lists what was not checked, and ends with the totals", () => {
    expect(summary(report).split("\n")).toEqual([
      "Violations of the interface at https://staging.example:",
      "",
      `✗ errors › fails <with> "quotes" & more`,
      "    answered 500, expected 400 <b>\u0001",
      "      request: GET https://staging.example/api/v2/collection?perPage=0&page=1",
      "",
      "Not checked:",
      "- writes › skips: writes are off",
      "",
      "contract-test: 1 passed, 1 failed, 1 skipped (1.2 s, https://staging.example)",
    ]);
  });
});

describe("the suite's options", () => {
  it("reads flags before BASE_URL and API_KEY", () => {
    const options = readSuiteOptions(["--base-url", "https://a.example", "--token-id", "7", "--allow-writes"], {
      BASE_URL: "https://b.example",
      API_KEY: "k",
    });
    expect(options).toMatchObject({
      baseUrl: "https://a.example",
      apiKey: "k",
      tokenId: 7,
      allowWrites: true,
      junitPath: "contract-test-results.xml",
    });
    expect(readSuiteOptions([], {})).toMatchObject({ baseUrl: undefined, allowWrites: false });
  });

  it("refuses what cannot be right", () => {
    expect(() => readSuiteOptions(["--collection", "0x12"], {})).toThrow(
      expect.objectContaining({ descriptor: START_ERRORS.USAGE }),
    );
    expect(() => readSuiteOptions(["--chain-id", "0"], {})).toThrow(
      "--chain-id: '0' is not a valid number (an integer from 1 to 9007199254740991)",
    );
    expect(() => readSuiteOptions([], { BASE_URL: "/" })).toThrow(/not an http\(s\) URL/);
    expect(() => readSuiteOptions(["--no-such-flag"], {})).toThrow();
  });

  it("never prints an API key", () => {
    expect(redactApiKey("http://x/api/v2/item/new?apiKey=secret&a=1")).toBe("http://x/api/v2/item/new?apiKey=***&a=1");
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
