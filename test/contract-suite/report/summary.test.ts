import { describe, expect, it } from "vitest";
import { summary } from "../../../src/contract-suite/report/summary.ts";
import { report } from "./sample-report.ts";

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
