import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import {
  answerProblems,
  codeMismatch,
  type ReceivedAnswer,
} from "../../../src/contract-suite/answers/answer-checks.ts";
import type { Draft } from "../../../src/contract-suite/fuzz/valid.ts";
import { mintBody } from "../../../src/contract-suite/checks/mint.ts";
import { API_KEY_HEADER } from "../../../src/schemas/common.ts";
import {
  getCollection,
  getItemEvents,
  getItemMetadata,
  listCollections,
  mintItem,
} from "../../../src/schemas/operations.ts";

// The checks of one answer, on the default world's recorded answers (fixtures/snapshots) and copies of them broken
// one way each: every rule must hold a conforming answer to no problem and name the break it guards.

const snapshot = (file: string): unknown =>
  JSON.parse(readFileSync(new URL(`../../../fixtures/snapshots/${file}`, import.meta.url), "utf8"));

const COLLECTION = "0x470d7b2d4855bb6e80654c911fa410a717f77e0e";
const HOST: [string, string] = ["host", "target.example"];

const request = (parts: Partial<Draft> = {}): Draft => ({
  params: [],
  query: [],
  headers: [HOST],
  ...parts,
});
const answer = (status: number, json: unknown): ReceivedAnswer => ({ status, text: JSON.stringify(json), json });
const error = (code: string, message = "refused") => ({ error: code, message, errors: [message] });

const collectionRequest = (address: string) => request({ params: [["address", address]] });
const mintRequest = (parts: Partial<Draft> = {}, body: unknown = mintBody(COLLECTION, 56, COLLECTION)) =>
  request({ headers: [HOST, ["content-type", "application/json"]], body: JSON.stringify(body), ...parts });

describe("an error body's code", () => {
  it("must be one of its status's codes, for the statuses every deployment answers", () => {
    expect(codeMismatch(404, error("NOT_FOUND"))).toBeUndefined();
    expect(codeMismatch(400, error("NOT_FOUND"))).toBe(
      "error code NOT_FOUND does not go with status 400 (expected VALIDATION_FAILED or INVALID_JSON)",
    );
    expect(codeMismatch(409, error("NOT_FOUND"))).toBeUndefined();
    expect(codeMismatch(200, error("NOT_FOUND"))).toBeUndefined();
  });

  it("is checked on every answer", () => {
    expect(answerProblems(getCollection, collectionRequest(COLLECTION), answer(404, error("UNAUTHORIZED")))).toEqual([
      "error code UNAUTHORIZED does not go with status 404 (expected NOT_FOUND)",
    ]);
    expect(
      answerProblems(listCollections, request({ query: [["perPage", "0"]] }), answer(400, error("NOT_FOUND"))),
    ).toEqual(["error code NOT_FOUND does not go with status 400 (expected VALIDATION_FAILED or INVALID_JSON)"]);
  });
});

describe("a write without an API key", () => {
  const refused = answer(404, error("NOT_FOUND"));

  it("must be answered 401", () => {
    expect(answerProblems(mintItem, mintRequest(), refused)).toEqual([
      "answered 404 to a request with no API key, expected 401",
    ]);
    expect(answerProblems(mintItem, mintRequest(), answer(401, error("UNAUTHORIZED")))).toEqual([]);
  });

  it("carries one in the query or in the header, named in any case", () => {
    expect(answerProblems(mintItem, mintRequest({ query: [["apiKey", "k"]] }), refused)).toEqual([]);
    const header = (name: string) =>
      mintRequest({ headers: [HOST, ["content-type", "application/json"], [name, "k"]] });
    expect(answerProblems(mintItem, header(API_KEY_HEADER), refused)).toEqual([]);
    expect(answerProblems(mintItem, header(API_KEY_HEADER.toLowerCase()), refused)).toEqual([]);
    expect(API_KEY_HEADER).toBe("ALTURA_API_KEY");
  });

  it("that its schemas refuse anyway may be refused for that first", () => {
    expect(
      answerProblems(mintItem, mintRequest({}, { recipient: 1 }), answer(400, error("VALIDATION_FAILED"))),
    ).toEqual([]);
    // A write is not a read: its refusals other than 400 are not held to 400.
    expect(answerProblems(mintItem, mintRequest({}, { recipient: 1 }), refused)).toEqual([]);
  });
});

describe("a request its schemas refuse", () => {
  const malformed = collectionRequest("not-an-address");
  const page = snapshot("collections/default/page-1.json");

  it("must not be accepted", () => {
    expect(answerProblems(listCollections, request({ query: [["perPage", "1000"]] }), answer(200, page))).toEqual([
      "accepted (200) a request its schemas refuse: query.perPage must be <= 100",
    ]);
  });

  it("is answered 400 by a read of the API, or by the server's own refusals", () => {
    expect(answerProblems(getCollection, malformed, answer(400, error("VALIDATION_FAILED")))).toEqual([]);
    expect(answerProblems(getCollection, malformed, answer(404, error("NOT_FOUND")))).toEqual([
      "answered 404 to a request its schemas refuse, expected 400: path.address must match pattern " +
        '"^0x[0-9a-fA-F]{40}$"',
    ]);
    expect(answerProblems(getCollection, malformed, answer(408, error("VALIDATION_FAILED")))).toEqual([]);
    expect(answerProblems(getCollection, malformed, answer(431, error("VALIDATION_FAILED")))).toEqual([]);
    expect(answerProblems(getCollection, malformed, answer(500, error("INTERNAL")))).toEqual([
      "answered 500: a server error",
      "answered 500, which getCollection does not document (200, 400, 404, 408, 417, 431, 503)",
    ]);
  });

  it("is neither accepted nor refused by a redirect", () => {
    expect(answerProblems(getCollection, malformed, answer(300, error("VALIDATION_FAILED")))).toEqual([
      "answered 300, which getCollection does not document (200, 400, 404, 408, 417, 431, 503)",
      "answered 300 to a request its schemas refuse, expected 400: path.address must match pattern " +
        '"^0x[0-9a-fA-F]{40}$"',
    ]);
  });

  it("may be answered 404 by the metadata route, which serves nothing it cannot find", () => {
    const metadata = request({
      params: [
        ["chainId", "56"],
        ["slug", "s"],
        ["tokenId", "x"],
      ],
    });
    expect(answerProblems(getItemMetadata, metadata, answer(404, error("NOT_FOUND")))).toEqual([]);
  });
});

describe("a 200 to a conforming read", () => {
  const history = (address: string, tokenId: string) =>
    request({
      params: [
        ["address", address],
        ["tokenId", tokenId],
      ],
    });

  it("is held to its page's rules", () => {
    const events = snapshot(`item-events/${COLLECTION}/3/page-1.json`);
    expect(answerProblems(getItemEvents, history(COLLECTION, "3"), answer(200, events))).toEqual([]);
    expect(answerProblems(getItemEvents, history(COLLECTION, "4"), answer(200, events))).toContain(
      `event ${(events as { events: { id: string }[] }).events[0]!.id}: tokenId 3, expected 4`,
    );
    const page = snapshot("collections/default/page-1.json") as { count: number };
    expect(answerProblems(listCollections, request(), answer(200, page))).toEqual([]);
    expect(answerProblems(listCollections, request(), answer(200, { ...page, count: 3 }))).toEqual([
      "page 1 holds 24 collections with count 3; the default perPage 24 means 3",
    ]);
  });

  it("to one collection answers the collection asked for, in any case", () => {
    const body = snapshot(`collection/${COLLECTION}.json`);
    expect(
      answerProblems(getCollection, collectionRequest(COLLECTION.toUpperCase().replace("0X", "0x")), answer(200, body)),
    ).toEqual([]);
    const other = "0x19add1c9dd472b057487f493f424ba8b2e30f883";
    expect(answerProblems(getCollection, collectionRequest(other), answer(200, body))).toEqual([
      `asked for collection ${other}, answered ${COLLECTION}`,
    ]);
  });

  it("whose body breaks its schema is not read for the page's rules", () => {
    const body = snapshot(`collection/${COLLECTION}.json`) as { collection: Record<string, unknown> };
    const upper = { collection: { ...body.collection, address: COLLECTION.toUpperCase() } };
    const problems = answerProblems(getCollection, collectionRequest(COLLECTION), answer(200, upper));
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(/address must match pattern .* \(its response schema\)$/);
  });

  it("is the only answer read for them: an error answer is not a page", () => {
    expect(answerProblems(getItemEvents, history(COLLECTION, "3"), answer(404, error("NOT_FOUND")))).toEqual([]);
  });
});

describe("an answer's body", () => {
  it("must be JSON: what came instead is quoted, cut at 120 characters", () => {
    const page = `<html>${"x".repeat(200)}</html>`;
    expect(
      answerProblems(getCollection, collectionRequest(COLLECTION), { status: 200, text: page, json: undefined }),
    ).toEqual([`the body is not JSON: ${page.slice(0, 120)}`]);
  });

  it("of an error must be the error body, named as such", () => {
    expect(answerProblems(getCollection, collectionRequest(COLLECTION), answer(404, { error: "NOT_FOUND" }))).toEqual([
      "body: missing required field 'message' (the error body)",
      "body: missing required field 'errors' (the error body)",
    ]);
  });
});
