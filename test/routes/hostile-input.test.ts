import { brotliCompressSync, deflateSync, gzipSync } from "node:zlib";
import { afterAll, beforeAll, expect, it } from "vitest";
import type { ErrorCode } from "../../src/core/errors.ts";
import type { Simulator } from "../../src/simulator/simulator.ts";
import { call, collectionsOn, startDemo } from "../harness.ts";

let sim: Simulator;
let collection: string;
beforeAll(async () => {
  sim = await startDemo();
  [collection] = await collectionsOn(sim, 56);
});
afterAll(() => sim?.close());

const json = (body: string) => ({ method: "POST", headers: { "content-type": "application/json" }, body });

const requests: Array<[string, number, ErrorCode, () => [string, RequestInit?]]> = [
  ["repeated query parameters", 400, "VALIDATION_FAILED", () => ["/api/v2/collection?perPage=1&perPage=2"]],
  ["a page past 2^53", 400, "VALIDATION_FAILED", () => ["/api/v2/collection?page=99999999999999999999"]],
  ["an exponent page", 400, "VALIDATION_FAILED", () => ["/api/v2/collection?page=1e308"]],
  ["a fractional perPage", 400, "VALIDATION_FAILED", () => ["/api/v2/collection?perPage=2.5"]],
  ["an empty sortBy", 400, "VALIDATION_FAILED", () => ["/api/v2/collection?sortBy="]],
  ["a prototype key in the query", 400, "VALIDATION_FAILED", () => ["/api/v2/collection?__proto__=1&constructor=2"]],
  ["an infinite token id", 400, "VALIDATION_FAILED", () => [`/api/v2/item/events/${collection}/1e400`]],
  [
    "a huge token id",
    400,
    "VALIDATION_FAILED",
    () => [
      `/api/v2/item/events/${collection}/115792089237316195423570985008687907853269984665640564039457584007913129639936`,
    ],
  ],
  ["percent-encoded junk in the path", 400, "VALIDATION_FAILED", () => ["/api/v2/collection/%E0%A4%A"]],
  ["a very long address", 400, "VALIDATION_FAILED", () => [`/api/v2/collection/0x${"a".repeat(5000)}`]],
  ["a body of null", 400, "INVALID_JSON", () => ["/api/v2/item/new?apiKey=demo-studio-key", json("null")]],
  ["a body of a string", 400, "INVALID_JSON", () => ["/api/v2/item/new?apiKey=demo-studio-key", json('"mint"')]],
  [
    "a prototype key in the body",
    400,
    "INVALID_JSON",
    () => ["/api/v2/item/new?apiKey=demo-studio-key", json('{"__proto__":{"admin":true}}')],
  ],
  [
    "an item that is a list",
    400,
    "VALIDATION_FAILED",
    () => [
      "/api/v2/item/new?apiKey=demo-studio-key",
      json(`{"collectionAddress":"${collection}","recipient":"${collection}","chainId":56,"item":[]}`),
    ],
  ],
  [
    "a huge chainId",
    400,
    "VALIDATION_FAILED",
    () => [
      "/api/v2/item/new?apiKey=demo-studio-key",
      json(
        `{"collectionAddress":"${collection}","recipient":"${collection}","chainId":1e300,"item":{"name":"x","initialSupply":1}}`,
      ),
    ],
  ],
  [
    "a supply beyond 2^53",
    400,
    "VALIDATION_FAILED",
    () => [
      "/api/v2/item/new?apiKey=demo-studio-key",
      json(
        `{"collectionAddress":"${collection}","recipient":"${collection}","chainId":56,"item":{"name":"x","initialSupply":9007199254740993}}`,
      ),
    ],
  ],
  [
    "a form with item that is not JSON",
    400,
    "VALIDATION_FAILED",
    () => ["/api/v2/item/new?apiKey=demo-studio-key", { method: "POST", body: new URLSearchParams({ item: "{" }) }],
  ],
  [
    "a form with nothing",
    400,
    "VALIDATION_FAILED",
    () => ["/api/v2/item/new?apiKey=demo-studio-key", { method: "POST", body: new URLSearchParams({}) }],
  ],
  [
    "an unknown query parameter beside the apiKey",
    400,
    "VALIDATION_FAILED",
    () => ["/api/v2/item/new?apiKey=demo-studio-key&dryRun=1", json("{}")],
  ],
  ["an array apiKey", 400, "VALIDATION_FAILED", () => ["/api/v2/item/new?apiKey=a&apiKey=b", json("{}")]],
  ["a GET on the mint path", 405, "METHOD_NOT_ALLOWED", () => ["/api/v2/item/new"]],
  [
    "a DELETE on a collection",
    405,
    "METHOD_NOT_ALLOWED",
    () => [`/api/v2/collection/${collection}`, { method: "DELETE" }],
  ],
  ["metadata of an unknown chain", 404, "NOT_FOUND", () => ["/metadata/999/dragon-riders/1"]],
  ["metadata with a bad token id", 400, "VALIDATION_FAILED", () => ["/metadata/56/dragon-riders/x"]],
  ["a hexadecimal perPage", 400, "VALIDATION_FAILED", () => ["/api/v2/collection?perPage=0x10"]],
  ["an exponent page that is a whole number", 400, "VALIDATION_FAILED", () => ["/api/v2/collection?page=1e1"]],
  ["a hexadecimal chainId filter", 400, "VALIDATION_FAILED", () => ["/api/v2/collection?chainId=0x38"]],
  ["an empty page", 400, "VALIDATION_FAILED", () => ["/api/v2/collection?page="]],
  ["a perPage with a leading space", 400, "VALIDATION_FAILED", () => ["/api/v2/collection?perPage=%2016"]],
  ["a hexadecimal token id", 400, "VALIDATION_FAILED", () => [`/api/v2/item/events/${collection}/0x1`]],
  [
    "a hexadecimal chainId on an item's history",
    400,
    "VALIDATION_FAILED",
    () => [`/api/v2/item/events/${collection}/1?chainId=0x38`],
  ],
  ["a hexadecimal chainId in a metadata path", 400, "VALIDATION_FAILED", () => ["/metadata/0x38/dragon-riders/1"]],
  ...(["gzip", "deflate", "br"] as const).map((coding): (typeof requests)[number] => [
    `a body that is not in the ${coding} coding it names`,
    400,
    "INVALID_JSON",
    () => [
      "/api/v2/item/new?apiKey=demo-studio-key",
      {
        method: "POST",
        headers: { "content-type": "application/json", "content-encoding": coding },
        body: '{"not":"compressed"}',
      },
    ],
  ]),
  [
    "a content coding nobody knows",
    415,
    "UNSUPPORTED_MEDIA_TYPE",
    () => [
      "/api/v2/item/new?apiKey=demo-studio-key",
      { method: "POST", headers: { "content-type": "application/json", "content-encoding": "x-squash" }, body: "{}" },
    ],
  ],
];

it("a content coding nobody knows is named as the problem, not the media type", async () => {
  const { status, body } = await call(sim, "/_sim/faults", {
    method: "POST",
    headers: { "content-type": "application/json", "content-encoding": "x-squash" },
    body: "{}",
  });
  expect(status).toBe(415);
  expect(body).toEqual({
    error: "UNSUPPORTED_MEDIA_TYPE",
    message: "The body's content-encoding is not supported",
    errors: [expect.stringMatching(/^content-encoding 'x-squash' is not supported/)],
  });
});

it.each(["GZIP", "Gzip", "DEFLATE", "Br"])(
  "a body in the coding it names as %s is decoded (codings are case-insensitive)",
  async (coding) => {
    const rule = JSON.stringify({ match: { path: "/api/v2/never" }, effect: { status: 503 } });
    const encode = { gzip: gzipSync, deflate: deflateSync, br: brotliCompressSync }[
      coding.toLowerCase() as "gzip" | "deflate" | "br"
    ];
    const { status, body } = await call(sim, "/_sim/faults", {
      method: "POST",
      headers: { "content-type": "application/json", "content-encoding": coding },
      body: encode(rule),
    });
    expect(status, JSON.stringify(body)).toBe(200);
    expect(body.match).toEqual({ path: "/api/v2/never" });
    await call(sim, `/_sim/faults/${body.id}`, { method: "DELETE" });
  },
);

it.each(requests)("%s answers %i with error %s and the JSON error body", async (_what, expectedStatus, code, make) => {
  const [path, init] = make();
  const { status, body } = await call(sim, path, init);
  expect({ status, error: body?.error }).toEqual({ status: expectedStatus, error: code });
  expect(body).toEqual({
    error: code,
    message: expect.any(String),
    errors: expect.arrayContaining([expect.any(String)]),
  });
});
