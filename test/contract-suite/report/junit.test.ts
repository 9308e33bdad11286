import { describe, expect, it } from "vitest";
import { junitXml } from "../../../src/contract-suite/report/junit.ts";
import { report } from "./sample-report.ts";

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
