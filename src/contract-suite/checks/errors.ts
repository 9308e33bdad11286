import { codeMismatch } from "../answers/answer-checks.ts";
import { check, type Check, type CheckGroup, type Probe } from "../check.ts";
import type { Api, Exchange } from "../http.ts";
import { bodyChecks } from "../schemas.ts";
import { paths } from "../target.ts";
import { expectJsonBody, expectStatus } from "./expect.ts";
import { mintBody } from "./mint-body.ts";

/** An address no collection has (a precompile's). */
const UNKNOWN_ADDRESS = "0x0000000000000000000000000000000000000001";
const MALFORMED_ADDRESS = "0x12";
const UNKNOWN_TOKEN_ID = 999_999_999;

interface ErrorCase {
  name: string;
  status: number;
  send(probe: Probe): Promise<Exchange>;
}

async function sampleMint(probe: Probe) {
  const known = await probe.facts.collection().catch(() => undefined);
  const collection = known?.collection;
  return mintBody(
    collection?.address ?? UNKNOWN_ADDRESS,
    probe.facts.target.chainId ?? collection?.chainId ?? 1,
    collection?.ownerAddress ?? UNKNOWN_ADDRESS,
  );
}

const CASES: ErrorCase[] = [
  {
    name: "a malformed address on /collection/:address",
    status: 400,
    send: ({ api }) => api.get(paths.collection(MALFORMED_ADDRESS)),
  },
  {
    name: "an unknown collection on /collection/:address",
    status: 404,
    send: ({ api }) => api.get(paths.collection(UNKNOWN_ADDRESS)),
  },
  { name: "perPage=0 on the list", status: 400, send: ({ api }) => api.get(paths.collections, { perPage: 0 }) },
  { name: "perPage=1000 on the list", status: 400, send: ({ api }) => api.get(paths.collections, { perPage: 1000 }) },
  { name: "page=0 on the list", status: 400, send: ({ api }) => api.get(paths.collections, { page: 0 }) },
  {
    name: "sortBy on an unknown field",
    status: 400,
    send: ({ api }) => api.get(paths.collections, { sortBy: "noSuchField" }),
  },
  {
    name: "sortDir other than asc or desc",
    status: 400,
    send: ({ api }) => api.get(paths.collections, { sortDir: "sideways" }),
  },
  {
    name: "a filter on an unknown field",
    status: 400,
    send: ({ api }) => api.get(paths.collections, { noSuchField: "x" }),
  },
  {
    name: "a filter value of the wrong type (chainId=abc)",
    status: 400,
    send: ({ api }) => api.get(paths.collections, { chainId: "abc" }),
  },
  {
    name: "a malformed address on item events",
    status: 400,
    send: ({ api }) => api.get(paths.itemEvents(MALFORMED_ADDRESS, 1)),
  },
  {
    name: "an unknown collection on item events",
    status: 404,
    send: ({ api }) => api.get(paths.itemEvents(UNKNOWN_ADDRESS, 1)),
  },
  {
    name: "an unknown tokenId of a known collection on item events",
    status: 404,
    send: async (probe) => probe.api.get(paths.itemEvents((await probe.facts.item()).collection, UNKNOWN_TOKEN_ID)),
  },
  {
    name: "a tokenId that is not an integer on item events",
    status: 400,
    send: async (probe) => probe.api.get(paths.itemEvents((await probe.facts.item()).collection, "abc")),
  },
  {
    name: "perPage=0 on item events",
    status: 400,
    send: async (probe) => {
      const item = await probe.facts.item();
      return probe.api.get(paths.itemEvents(item.collection, item.tokenId), { perPage: 0 });
    },
  },
  {
    name: "perPage=1000 on item events",
    status: 400,
    send: async (probe) => {
      const item = await probe.facts.item();
      return probe.api.get(paths.itemEvents(item.collection, item.tokenId), { perPage: 1000 });
    },
  },
  {
    name: "a mint without apiKey",
    status: 401,
    send: async (probe) => probe.api.post(paths.mint, {}, await sampleMint(probe)),
  },
  {
    name: "a mint with an unknown apiKey",
    status: 401,
    send: async (probe) =>
      probe.api.post(paths.mint, { apiKey: "contract-suite-no-such-key" }, await sampleMint(probe)),
  },
  {
    name: "a mint with an invalid body (malformed recipient, no item)",
    status: 400,
    send: async (probe) => {
      const { apiKey } = probe.facts.target;
      if (!apiKey) probe.skip("needs an API key (--api-key / API_KEY)");
      const { item: _item, ...rest } = await sampleMint(probe);
      return probe.api.post(paths.mint, { apiKey }, { ...rest, recipient: MALFORMED_ADDRESS });
    },
  },
  { name: "an unknown route under /api/v2", status: 404, send: ({ api }) => api.get("/api/v2/no-such-route") },
];

/** Each case is sent once per run, though two checks judge it. */
function sentOnce(errorCase: ErrorCase): (probe: Probe) => Promise<Exchange> {
  const sent = new WeakMap<Api, Promise<Exchange>>();
  return (probe) => {
    let pending = sent.get(probe.api);
    if (!pending) sent.set(probe.api, (pending = errorCase.send(probe)));
    return pending;
  };
}

function checksFor(errorCase: ErrorCase): Check[] {
  const send = sentOnce(errorCase);
  return [
    check(
      `${errorCase.name} answers ${errorCase.status}`,
      async (probe) => void expectStatus(probe, await send(probe), errorCase.status),
    ),
    check(`${errorCase.name} answers the JSON error body {error, message, errors[]}`, async (probe) => {
      const exchange = await send(probe);
      if (exchange.status < 400) return probe.fail(exchange, `answered ${exchange.status}, not an error`);
      expectJsonBody(probe, exchange, bodyChecks.error, "ErrorBody");
      const mismatch = codeMismatch(exchange.status, exchange.json);
      if (mismatch) probe.fail(exchange, mismatch);
    }),
  ];
}

export const errorChecks: CheckGroup = { name: "errors", checks: CASES.flatMap(checksFor) };
