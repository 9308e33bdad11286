import { Type } from "@sinclair/typebox";
import { describe, expect, it } from "vitest";
import type { Probe } from "../../../src/contract-suite/check.ts";
import {
  duplicates,
  expectJsonBody,
  expectOk,
  expectStatus,
  sameSequence,
  snippet,
} from "../../../src/contract-suite/checks/expect.ts";
import type { Exchange } from "../../../src/contract-suite/http.ts";

function recordingProbe(): { probe: Probe; found: string[] } {
  const found: string[] = [];
  return { probe: { fail: (_exchange: unknown, message: string) => void found.push(message) } as Probe, found };
}

const exchange = (fields: Partial<Exchange>): Exchange => ({
  method: "GET",
  url: "http://t/x",
  request: "GET http://t/x",
  status: 200,
  contentType: "application/json",
  text: "{}",
  json: {},
  ...fields,
});

describe("expectStatus", () => {
  it("holds for the status, and otherwise names it with the body's start", () => {
    const { probe, found } = recordingProbe();
    expect(expectStatus(probe, exchange({ status: 400 }), 400)).toBe(true);
    expect(expectStatus(probe, exchange({ status: 404, text: '{"error":\n  "NOT_FOUND"}' }), 400)).toBe(false);
    expect(expectStatus(probe, exchange({ status: 500, text: "" }), 200)).toBe(false);
    expect(found).toEqual(['answered 404, expected 400; body: {"error": "NOT_FOUND"}', "answered 500, expected 200"]);
  });
});

describe("expectJsonBody and expectOk", () => {
  const schema = Type.Object({ ok: Type.Literal(true) }, { $id: "S" });

  it("names a body that is not JSON, and each problem the schema finds", () => {
    const { probe, found } = recordingProbe();
    expectJsonBody(probe, exchange({ json: undefined, contentType: "text/plain", text: "Bad\nRequest" }), schema);
    expectJsonBody(probe, exchange({ json: { ok: false } }), schema);
    expectJsonBody(probe, exchange({ json: { ok: true } }), schema);
    expect(found).toEqual([
      "the body is not JSON (content-type 'text/plain'): Bad Request",
      "body.ok must be true (schema S)",
    ]);
  });

  it("expectOk judges the status and the body, each on its own", () => {
    const { probe, found } = recordingProbe();
    expectOk(probe, exchange({ status: 201, text: "", json: { ok: false } }), schema);
    expect(found).toEqual(["answered 201, expected 200", "body.ok must be true (schema S)"]);
  });
});

describe("snippet", () => {
  it("flattens white space and cuts at the length, marking the cut", () => {
    expect(snippet("  a \n\t b  ")).toBe("a b");
    expect(snippet("abcdef", 3)).toBe("abc…");
    expect(snippet("abc", 3)).toBe("abc");
    expect(snippet("x".repeat(201))).toBe(`${"x".repeat(200)}…`);
    expect(snippet("x".repeat(200))).toBe("x".repeat(200));
  });
});

describe("sameSequence and duplicates", () => {
  it("names the first record that differs, or a difference in length", () => {
    expect(sameSequence("l", ["a", "b"], ["a", "b"])).toBeUndefined();
    expect(sameSequence("l", [], [])).toBeUndefined();
    expect(sameSequence("l", ["a", "c"], ["a", "b"])).toBe("l: record #2 is c, expected b");
    expect(sameSequence("l", ["x", "b"], ["a", "b"])).toBe("l: record #1 is x, expected a");
    expect(sameSequence("l", ["a"], ["a", "b"])).toBe("l: 1 records, expected 2");
    expect(sameSequence("l", ["a", "b", "c"], ["a", "b"])).toBe("l: 3 records, expected 2");
  });

  it("answers each id that appears more than once, once", () => {
    expect(duplicates(["a", "b", "a", "c", "a", "b"])).toEqual(["a", "b"]);
    expect(duplicates(["a", "b"])).toEqual([]);
    expect(duplicates([])).toEqual([]);
  });
});
