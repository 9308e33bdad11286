import { expect, it } from "vitest";
import { Findings } from "../../src/proxy/findings.ts";

it("reports each finding as a failed case of its operation, and the answers that broke nothing as one passing case each", () => {
  const findings = new Findings();
  findings.add("getCollections", undefined);
  findings.add("getCollections", undefined);
  findings.add("getItemEvents", undefined);
  const broken = {
    requestId: 4,
    operation: "getCollections",
    request: "GET /api/v2/collection?apiKey=abcd…",
    status: 200,
    violations: ["count is a string", "collections[0] lacks name"],
  };
  findings.add("getCollections", broken);
  expect(findings.found).toEqual([broken]);

  const xml = findings.junit("https://up.example");
  expect(xml).toContain('<testsuites name="contract-test https://up.example" tests="3" failures="1" skipped="0"');
  expect(xml).toContain('<testsuite name="proxy getCollections" tests="2" failures="1"');
  expect(xml).toContain('<testcase classname="proxy getCollections" name="2 answers as documented" time="0.000"/>');
  expect(xml).toContain('<testcase classname="proxy getItemEvents" name="1 answer as documented" time="0.000"/>');
  expect(xml).toContain(
    '<testcase classname="proxy getCollections" name="#4 GET /api/v2/collection?apiKey=abcd… answered 200" time="0.000">',
  );
  expect(xml).toContain(
    '<failure message="count is a string" type="ContractViolation">count is a string\n  request: GET /api/v2/collection?apiKey=abcd…\ncollections[0] lacks name\n  request: GET /api/v2/collection?apiKey=abcd…</failure>',
  );
});

it("orders the operations by name, whether they broke or not, so the report reads the same on every run", () => {
  const findings = new Findings();
  findings.add("getItemEvents", {
    requestId: 1,
    operation: "getItemEvents",
    request: "GET /api/v2/item/events/0xc011/1",
    status: 500,
    violations: ["answered 500"],
  });
  findings.add("getCollections", undefined);
  const xml = findings.junit("https://up.example");
  expect(xml.indexOf('<testsuite name="proxy getCollections"')).toBeGreaterThan(0);
  expect(xml.indexOf('<testsuite name="proxy getCollections"')).toBeLessThan(
    xml.indexOf('<testsuite name="proxy getItemEvents"'),
  );
});

it("writes an empty report when nothing passed through", () => {
  expect(new Findings().junit("https://up.example")).toContain('tests="0" failures="0"');
});
