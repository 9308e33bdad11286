import { ErrorBody } from "../../schemas/error.ts";
import { codeMismatch } from "../answers/answer-checks.ts";
import { check, oncePerRun, type Check, type CheckGroup, type Probe } from "../check.ts";
import type { Exchange, Query } from "../http.ts";
import { paths } from "../target.ts";
import { expectJsonBody, expectStatus } from "./expect.ts";
import { mintBody } from "./mint.ts";

/** An address no collection has (a precompile's). */
const UNKNOWN_ADDRESS = "0x0000000000000000000000000000000000000001";
const MALFORMED_ADDRESS = "0x12";
const UNKNOWN_TOKEN_ID = 999_999_999;

/** What a case sends, and the status it must answer. */
type ErrorCase = [name: string, status: number, send: (probe: Probe) => Promise<Exchange>];

const get =
  (path: string, query?: Query) =>
  ({ api }: Probe) =>
    api.get(path, query);
/** The known item's history (or another token of its collection), asked with `query`. */
const onItem =
  (query: Query, tokenId?: number | string) =>
  async ({ api, facts }: Probe) => {
    const item = await facts.item();
    return api.get(paths.itemEvents(item.collection, tokenId ?? item.tokenId), query);
  };

async function sampleMint(probe: Probe) {
  const collection = (await probe.facts.collection().catch(() => undefined))?.collection;
  return mintBody(
    collection?.address ?? UNKNOWN_ADDRESS,
    probe.facts.target.chainId ?? collection?.chainId ?? 1,
    collection?.ownerAddress ?? UNKNOWN_ADDRESS,
  );
}

/** A valid mint sent with `apiKey` (none when undefined: the query leaves undefined out). */
const mintWith = (apiKey?: string) => async (probe: Probe) =>
  probe.api.post(paths.mint, { apiKey }, await sampleMint(probe));

const CASES: ErrorCase[] = [
  ["a malformed address on /collection/:address", 400, get(paths.collection(MALFORMED_ADDRESS))],
  ["an unknown collection on /collection/:address", 404, get(paths.collection(UNKNOWN_ADDRESS))],
  ["perPage=0 on the list", 400, get(paths.collections, { perPage: 0 })],
  ["perPage=1000 on the list", 400, get(paths.collections, { perPage: 1000 })],
  ["page=0 on the list", 400, get(paths.collections, { page: 0 })],
  ["sortBy on an unknown field", 400, get(paths.collections, { sortBy: "noSuchField" })],
  ["sortDir other than asc or desc", 400, get(paths.collections, { sortDir: "sideways" })],
  ["a filter on an unknown field", 400, get(paths.collections, { noSuchField: "x" })],
  ["a filter value of the wrong type (chainId=abc)", 400, get(paths.collections, { chainId: "abc" })],
  ["a malformed address on item events", 400, get(paths.itemEvents(MALFORMED_ADDRESS, 1))],
  ["an unknown collection on item events", 404, get(paths.itemEvents(UNKNOWN_ADDRESS, 1))],
  ["an unknown tokenId of a known collection on item events", 404, onItem({}, UNKNOWN_TOKEN_ID)],
  ["a tokenId that is not an integer on item events", 400, onItem({}, "abc")],
  ["perPage=0 on item events", 400, onItem({ perPage: 0 })],
  ["perPage=1000 on item events", 400, onItem({ perPage: 1000 })],
  ["a mint without apiKey", 401, mintWith()],
  ["a mint with an unknown apiKey", 401, mintWith("contract-suite-no-such-key")],
  [
    "a mint with an invalid body (malformed recipient, no item)",
    400,
    async (probe) => {
      const { apiKey } = probe.facts.target;
      if (!apiKey) probe.skip("needs an API key (--api-key / API_KEY)");
      const { item: _item, ...rest } = await sampleMint(probe);
      return probe.api.post(paths.mint, { apiKey }, { ...rest, recipient: MALFORMED_ADDRESS });
    },
  ],
  ["an unknown route under /api/v2", 404, get("/api/v2/no-such-route")],
];

function checksFor([name, status, sendOnce]: ErrorCase): Check[] {
  const send = oncePerRun(sendOnce);
  return [
    check(`${name} answers ${status}`, async (probe) => void expectStatus(probe, await send(probe), status)),
    check(`${name} answers the JSON error body {error, message, errors[]}`, async (probe) => {
      const exchange = await send(probe);
      if (exchange.status < 400) return probe.fail(exchange, `answered ${exchange.status}, not an error`);
      expectJsonBody(probe, exchange, ErrorBody);
      const mismatch = codeMismatch(exchange.status, exchange.json);
      if (mismatch) probe.fail(exchange, mismatch);
    }),
  ];
}

export const errorChecks: CheckGroup = { name: "errors", checks: CASES.flatMap(checksFor) };
