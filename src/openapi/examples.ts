import { readFileSync } from "node:fs";
import { addressOf, keyFor } from "../core/keys.ts";
import { slugify } from "../core/formats.ts";
import { type ApiError, apiError, ERRORS } from "../core/errors.ts";
import { API_KEY_HEADER } from "../schemas/common.ts";
import type { OPERATIONS } from "../schemas/operations.ts";
import type { ErrorBody } from "../schemas/error.ts";
import type { Collection } from "../schemas/collection.ts";
import type { Scenario } from "../schemas/scenario.ts";

// Examples for the OpenAPI document, taken from the default world: its scenario file and the
// responses snapshotted from it (fixtures/snapshots, checked byte for byte against a fresh
// replay). test/openapi/examples.test.ts sends every example request to a simulator running
// that world and requires the documented status and body, so an example cannot drift.

/** A request as the document shows it: path parameters, query, body. */
export interface ExampleRequest {
  params?: Record<string, string | number>;
  query?: Record<string, string | number>;
  body?: unknown;
  /** Sent as is with this content type instead of `body` as JSON. */
  raw?: { contentType: string; text: string };
}

export interface ErrorExample {
  summary: string;
  /**
   * The request that answers it; none for what one request alone cannot cause (a chain outage, a stalled chain, a run
   * of bad keys).
   */
  request?: ExampleRequest;
  body: ErrorBody;
}

export interface OperationExamples {
  request: ExampleRequest;
  /** The 200 answer to `request` (absent for the mint, whose hash and token ids differ per run). */
  response?: unknown;
  errors: Record<number, ErrorExample>;
}

/**
 * What the HTTP server answers before any operation (operations.ts, SERVER_REFUSALS), as bodies; a raw request causes
 * each (test/http/error-exit.test.ts).
 */
export const SERVER_REFUSAL_EXAMPLES: Record<number, ErrorExample> = {
  400: {
    summary: "an HTTP/1.1 request without a Host header",
    body: apiError(ERRORS.MISSING_HOST).body,
  },
  408: {
    summary: "headers that took too long to arrive",
    body: apiError(ERRORS.REQUEST_TIMEOUT).body,
  },
  417: {
    summary: "Expect: foo",
    body: apiError(ERRORS.EXPECTATION_FAILED, { expect: "foo" }).body,
  },
  431: {
    summary: "headers over 16 kB",
    body: apiError(ERRORS.HEADERS_TOO_LARGE).body,
  },
};

type ApiOperationId = (typeof OPERATIONS)[number]["operationId"];

const fixtures = (path: string) => JSON.parse(readFileSync(new URL(`../../fixtures/${path}`, import.meta.url), "utf8"));

/** The error's body as the server answers it, told with `errors`. */
const answer = (error: ApiError, ...errors: string[]): ErrorBody => error.withErrors(errors).body;

const LOADING: ErrorExample = {
  summary: "the world is still being replayed (with Retry-After: 1)",
  body: answer(apiError(ERRORS.LOADING), "the world is being replayed onto the chain; retry in a second"),
};
const UNKNOWN_COLLECTION = "0x0000000000000000000000000000000000000001";
const PENDING_HASH = `0x${"5e".repeat(32)}`;

let built: Record<ApiOperationId, OperationExamples> | undefined;

/** The examples of every API operation, from the default world (read once). */
export function defaultWorldExamples(): Record<ApiOperationId, OperationExamples> {
  if (built) return built;
  const index = fixtures("snapshots/index.json") as { responses: { url: string; status: number; file: string }[] };
  const snapshot = (file: string) => fixtures(`snapshots/${file}`);
  const scenario = fixtures("default-world.json") as Scenario;

  // The busiest item: the one with the most pages of history.
  const pages = new Map<string, number>();
  for (const { file } of index.responses)
    if (file.startsWith("item-events/"))
      pages.set(file.split("/").slice(1, 3).join("/"), (pages.get(file.split("/").slice(1, 3).join("/")) ?? 0) + 1);
  const [busiest] = [...pages].sort((a, b) => b[1] - a[1])[0]!;
  const [address, tokenId] = busiest.split("/") as [string, string];

  const collections = index.responses
    .filter(({ file }) => file.startsWith("collection/"))
    .map(({ file }) => snapshot(file).collection);
  const mint = mintExample(scenario, collections);
  const minting = (body: unknown) => ({ query: { apiKey: mint.apiKey }, body });
  const list = snapshot("collections/default/page-1.json");
  const history = snapshot(`item-events/${address}/${tokenId}/page-1.json`);
  const itemMissing = index.responses.find(({ file }) => file.startsWith("errors/item-not-found"))!;
  const missingPath = new URL(itemMissing.url, "http://x").pathname.split("/");

  return (built = {
    mintItem: {
      request: minting(mint.body),
      errors: {
        400: {
          summary: "an item without a name",
          request: minting({ ...mint.body, item: { initialSupply: 10 } }),
          body: answer(apiError(ERRORS.INVALID_REQUEST, { part: "body" }), "body.item: missing required field 'name'"),
        },
        401: {
          summary: "no apiKey",
          request: { body: mint.body },
          body: apiError(ERRORS.API_KEY_REQUIRED, { name: "apiKey", header: API_KEY_HEADER }).body,
        },
        403: {
          summary: "a key whose developer wallet lacks the collection's minter role",
          request: { query: { apiKey: mint.outsider.apiKey }, body: mint.body },
          body: answer(
            apiError(ERRORS.WALLET_NOT_MINTER),
            `developer wallet ${mint.outsider.wallet} of API key '${mint.outsider.name}' does not hold the ` +
              `collection's minter role`,
          ),
        },
        409: {
          summary: "the chain dropped the mint's transaction before mining it (rewound meanwhile)",
          body: answer(
            apiError(ERRORS.MINT_DROPPED, {}, { txHash: PENDING_HASH }),
            `transaction ${PENDING_HASH} left the chain without being mined (the chain was rewound, e.g. ` +
              `evm_revert, or its pool cleared); nothing was minted: send the mint again`,
          ),
        },
        404: {
          summary: "no such collection on that chain",
          request: minting({ ...mint.body, collectionAddress: UNKNOWN_COLLECTION }),
          body: apiError(ERRORS.NOT_FOUND, { what: `Collection ${UNKNOWN_COLLECTION}` }).body,
        },
        413: {
          summary: "a body over 100 kB",
          request: {
            query: { apiKey: mint.apiKey },
            raw: {
              contentType: "application/json",
              text: JSON.stringify({ ...mint.body, padding: "x".repeat(110_000) }),
            },
          },
          body: apiError(ERRORS.BODY_TOO_LARGE).body,
        },
        415: {
          summary: "a body that is neither JSON nor a form",
          request: { query: { apiKey: mint.apiKey }, raw: { contentType: "text/plain", text: "Sword" } },
          body: answer(
            apiError(ERRORS.UNSUPPORTED_MEDIA_TYPE, { expected: "application/json (or a form)" }),
            "content-type 'text/plain' is not supported",
          ),
        },
        422: {
          summary: "a royalty of 30%",
          request: minting({ ...mint.body, item: { ...mint.body.item, royaltyFee: 300 } }),
          body: answer(
            apiError(ERRORS.CONTRACT_RULE, { what: "the mint" }),
            "item.royaltyFee 300 is 30% or more; the collection refuses royalties of 300 per mille or more",
          ),
        },
        429: {
          summary: "more than 100 unknown apiKeys from one address within a minute (with Retry-After)",
          body: answer(apiError(ERRORS.TOO_MANY_UNKNOWN_KEYS), "retry in 42 s"),
        },
        503: LOADING,
        504: {
          summary: "the chain did not mine the mint within the mint timeout",
          body: answer(
            apiError(ERRORS.MINT_PENDING, {}, { txHash: PENDING_HASH }),
            `transaction ${PENDING_HASH} was not mined within 30000 ms; its item appears, complete, once it is`,
          ),
        },
        507: {
          summary: "with --state, the journal's disk is full: nothing was minted",
          body: answer(
            apiError(ERRORS.STORAGE_FULL, { dir: "./state", code: "ENOSPC" }),
            "ENOSPC: no space left on device, write: free space there; " +
              "writes answer 507 until the journal can be written again, reads still answer",
          ),
        },
      },
    },
    getItemEvents: {
      request: { params: { address, tokenId: Number(tokenId) }, query: { perPage: 3, page: 1 } },
      response: { events: history.events.slice(0, 3) },
      errors: {
        400: {
          summary: "a page larger than 100",
          request: { params: { address, tokenId: Number(tokenId) }, query: { perPage: 1000 } },
          body: answer(apiError(ERRORS.INVALID_REQUEST, { part: "query" }), "query.perPage must be <= 100"),
        },
        404: {
          summary: "no such item in the collection",
          request: { params: { address: missingPath[5]!, tokenId: Number(missingPath[6]) } },
          body: snapshot(itemMissing.file),
        },
        503: LOADING,
      },
    },
    getCollection: {
      request: { params: { address } },
      response: snapshot(`collection/${address}.json`),
      errors: {
        400: {
          summary: "a malformed address",
          request: { params: { address: "0x123" } },
          body: answer(
            apiError(ERRORS.INVALID_REQUEST, { part: "path" }),
            'path.address must match pattern "^0x[0-9a-fA-F]{40}$"',
          ),
        },
        404: {
          summary: "no such collection",
          request: { params: { address: UNKNOWN_COLLECTION } },
          body: snapshot("errors/collection-not-found.json"),
        },
        503: LOADING,
      },
    },
    listCollections: {
      request: { query: { perPage: 2, page: 1, sortBy: "mintDate", sortDir: "desc" } },
      response: { collections: list.collections.slice(0, 2), count: list.count },
      errors: {
        400: {
          summary: "a page larger than 100",
          request: { query: { perPage: 1000 } },
          body: snapshot("errors/bad-query.json"),
        },
        503: LOADING,
      },
    },
  });
}

/**
 * A mint the default world takes: chain 56, a collection owned (so minted on) by an account with an API key, and a key
 * that may not.
 */
function mintExample(scenario: Scenario, collections: Collection[]) {
  const keyOf = new Map(scenario.apiKeys.map(({ account, key }) => [account, key]));
  const chosen = scenario.collections.find((collection) => collection.chainId === 56 && keyOf.has(collection.owner))!;
  const slug = chosen.slug ?? slugify(chosen.name);
  const onChain = collections.find((collection) => collection.chainId === 56 && collection.slug === slug)!;
  const outsider = scenario.apiKeys.find(
    ({ account }) => account !== chosen.owner && !chosen.minters.includes(account),
  )!;
  const label =
    scenario.accounts.find(({ name }) => name === outsider.account)?.keyLabel ?? `account/${outsider.account}`;
  return {
    apiKey: keyOf.get(chosen.owner)!,
    body: {
      collectionAddress: onChain.address,
      recipient: onChain.ownerAddress,
      chainId: 56,
      item: {
        name: "Sword of Dawn",
        description: "A blade forged at first light.",
        initialSupply: 10,
        maximumSupply: 100,
        royaltyFee: 50,
      },
    },
    outsider: { apiKey: outsider.key, name: outsider.account, wallet: addressOf(keyFor(label)) },
  };
}
