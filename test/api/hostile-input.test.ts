import { afterAll, beforeAll, expect, it } from "vitest";
import type { Simulator } from "../../src/simulator.ts";
import { call, collectionsOn, startDemo } from "./harness.ts";

let sim: Simulator;
let collection: string;
beforeAll(async () => {
  sim = await startDemo();
  [collection] = await collectionsOn(sim, 56);
});
afterAll(() => sim?.close());

const json = (body: string) => ({ method: "POST", headers: { "content-type": "application/json" }, body });

const requests: Array<[string, () => [string, RequestInit?]]> = [
  ["repeated query parameters", () => ["/api/v2/collection?perPage=1&perPage=2"]],
  ["a page past 2^53", () => ["/api/v2/collection?page=99999999999999999999"]],
  ["an exponent page", () => ["/api/v2/collection?page=1e308"]],
  ["a fractional perPage", () => ["/api/v2/collection?perPage=2.5"]],
  ["an empty sortBy", () => ["/api/v2/collection?sortBy="]],
  ["a prototype key in the query", () => ["/api/v2/collection?__proto__=1&constructor=2"]],
  ["an infinite token id", () => [`/api/v2/item/events/${collection}/1e400`]],
  ["a huge token id", () => [`/api/v2/item/events/${collection}/115792089237316195423570985008687907853269984665640564039457584007913129639936`]],
  ["percent-encoded junk in the path", () => ["/api/v2/collection/%E0%A4%A"]],
  ["a very long address", () => [`/api/v2/collection/0x${"a".repeat(5000)}`]],
  ["a body of null", () => ["/api/v2/item/new?apiKey=demo-studio-key", json("null")]],
  ["a body of a string", () => ["/api/v2/item/new?apiKey=demo-studio-key", json('"mint"')]],
  ["a prototype key in the body", () => ["/api/v2/item/new?apiKey=demo-studio-key", json('{"__proto__":{"admin":true}}')]],
  ["an item that is a list", () => ["/api/v2/item/new?apiKey=demo-studio-key", json(`{"collectionAddress":"${collection}","recipient":"${collection}","chainId":56,"item":[]}`)]],
  ["a huge chainId", () => ["/api/v2/item/new?apiKey=demo-studio-key", json(`{"collectionAddress":"${collection}","recipient":"${collection}","chainId":1e300,"item":{"name":"x","initialSupply":1}}`)]],
  ["a supply beyond 2^53", () => ["/api/v2/item/new?apiKey=demo-studio-key", json(`{"collectionAddress":"${collection}","recipient":"${collection}","chainId":56,"item":{"name":"x","initialSupply":9007199254740993}}`)]],
  ["a form with item that is not JSON", () => ["/api/v2/item/new?apiKey=demo-studio-key", { method: "POST", body: new URLSearchParams({ item: "{" }) }]],
  ["a form with nothing", () => ["/api/v2/item/new?apiKey=demo-studio-key", { method: "POST", body: new URLSearchParams({}) }]],
  ["an array apiKey", () => ["/api/v2/item/new?apiKey=a&apiKey=b", json("{}")]],
  ["a GET on the mint path", () => ["/api/v2/item/new"]],
  ["a DELETE on a collection", () => [`/api/v2/collection/${collection}`, { method: "DELETE" }]],
  ["metadata of an unknown chain", () => ["/metadata/999/dragon-riders/1"]],
  ["metadata with a bad token id", () => ["/metadata/56/dragon-riders/x"]],
];

it.each(requests)("%s gets a 4xx with the JSON error body", async (_what, make) => {
  const [path, init] = make();
  const { status, body } = await call(sim, path, init);
  expect(status).toBeGreaterThanOrEqual(400);
  expect(status).toBeLessThan(500);
  expect(body).toEqual({ error: expect.any(String), message: expect.any(String), errors: expect.arrayContaining([expect.any(String)]) });
});
