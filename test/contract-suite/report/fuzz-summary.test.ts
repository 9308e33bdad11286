import { expect, it } from "vitest";
import type { FuzzReport } from "../../../src/contract-suite/fuzz/run.ts";
import { fuzzSummary } from "../../../src/contract-suite/report/summary.ts";

const report = (fields: Partial<FuzzReport> = {}): FuzzReport => ({
  seed: 42,
  requests: 300,
  statuses: { 200: 120, 400: 170, 404: 10 },
  serverErrors: 0,
  mints: 7,
  operations: ["getCollections", "mintItem"],
  findings: [],
  ...fields,
});

it("sums up a clean run in its first and last lines", () => {
  expect(fuzzSummary(report()).split("\n")).toEqual([
    "300 requests (seed 42) to getCollections, mintItem: 200×120, 400×170, 404×10; 0 answered 5xx; 7 mint(s) accepted and read back",
    "",
    "Fuzz: no finding",
  ]);
  expect(fuzzSummary(report({ statuses: {}, requests: 0 }))).toContain(
    "0 requests (seed 42) to getCollections, mintItem: no answers;",
  );
});

it("lists each finding with its problems and curl line, and says how to repeat the run", () => {
  const text = fuzzSummary(
    report({
      serverErrors: 1,
      findings: [
        {
          operation: "mintItem",
          problems: ["answered 500", "no error body"],
          curl: "curl -X POST 'http://x/api/v2/item/new'",
        },
        { operation: "getCollections", problems: ["count is a string"], curl: "" },
      ],
    }),
  );
  expect(text.split("\n").slice(1)).toEqual([
    "",
    "✗ mintItem",
    "    answered 500",
    "    no error body",
    "    curl -X POST 'http://x/api/v2/item/new'",
    "",
    "✗ getCollections",
    "    count is a string",
    "",
    "Fuzz: 2 finding(s); repeat with --seed 42",
  ]);
  expect(text).toContain("1 answered 5xx");
});
