import { readFileSync } from "node:fs";
import type { TObject, TSchema } from "@sinclair/typebox";
import { ErrorBody } from "../schemas/error.ts";
import { MARKET_EVENTS, MarketEvent, TRANSFER_EVENTS, TransferEvent } from "../schemas/item-event.ts";
import { ItemDefinition, MintBody, Property, StoredItem } from "../schemas/item.ts";
import { hasDefault, SchemaComponents, type JsonSchema } from "./json-schema.ts";
import { IMAGE_OPERATIONS, OPERATIONS, SERVER_REFUSALS, type Operation } from "../schemas/operations.ts";
import { API_KEY_HEADER } from "../schemas/common.ts";

import { CONTROL_OPERATIONS } from "../schemas/control-operations.ts";
import { defaultWorldExamples, SERVER_REFUSAL_EXAMPLES, type OperationExamples } from "./examples.ts";

/** Schemas without an $id that deserve a name of their own in the document. */
const NAMED = new Map<TSchema, string>([
  [MintBody, "MintBody"],
  [ItemDefinition, "ItemDefinition"],
  [Property, "Property"],
  [StoredItem, "StoredItem"],
  [TransferEvent, "TransferEvent"],
  [MarketEvent, "MarketEvent"],
]);

const API_KEY_SCHEME = "apiKey";
const API_KEY_HEADER_SCHEME = "apiKeyHeader";
const ADMIN_SCHEME = "adminToken";

const STATUS_TEXT: Record<number, string> = {
  400: "Bad request",
  401: "Unauthorized",
  403: "Forbidden",
  404: "Not found",
  408: "Request timeout",
  409: "Conflict",
  413: "Payload too large",
  415: "Unsupported media type",
  417: "Expectation failed",
  422: "Refused by the contract",
  429: "Too many requests",
  431: "Headers too large",
  503: "Unavailable",
  504: "Timeout",
  507: "Insufficient storage",
};

/** Where the committed document (docs/openapi.json) says the API is: `npm run simulate`'s default. */
export const DEFAULT_SERVER_URL = "http://localhost:3000";

/**
 * The OpenAPI 3.1 document of the API, built from the same TypeBox schemas the server validates
 * with, for the simulator at `serverUrl`, with examples from the default world.
 */
export function buildOpenApiDocument(serverUrl = DEFAULT_SERVER_URL): JsonSchema {
  const components = new SchemaComponents(NAMED);
  const errorBody = components.use(ErrorBody, "response") as JsonSchema;
  for (const { response } of [...OPERATIONS, ...CONTROL_OPERATIONS]) components.use(response, "response");
  const examples = defaultWorldExamples();
  const paths: Record<string, Record<string, JsonSchema>> = {};
  const add = (operation: Operation, example: OperationExamples, more: JsonSchema = {}) => {
    const path = openApiPath(operation.path);
    const described = { ...describeOperation(operation, components, errorBody, example), ...more };
    paths[path] = { ...paths[path], [operation.method]: described };
  };
  for (const operation of OPERATIONS) add(operation, examples[operation.operationId]);
  const image = { request: { params: { seed: "frost-shards" }, query: { size: 256 } }, errors: {} };
  for (const operation of IMAGE_OPERATIONS) add(operation, image);
  const adminSecurity = { security: [{}, { [ADMIN_SCHEME]: [] }] as JsonSchema[] };
  for (const operation of CONTROL_OPERATIONS) add(operation, { request: {}, errors: {} }, adminSecurity);
  discriminateItemEvents(components.schemas);
  return {
    openapi: "3.1.0",
    servers: [{ url: serverUrl, description: "the simulator" }],
    info: {
      title: "NFT item and collection service (simulator)",
      version: packageVersion(),
      description:
        "The v2 REST API of the NFT item and collection service, as the simulator serves it. Every answer comes from " +
        "a real EVM chain. " +
        "Errors share one JSON body: `{ error, message, errors: string[] }`. Paged endpoints default to perPage 24 " +
        "and page 1; " +
        "the collection list sorts by mintDate, descending, by default.",
    },
    tags: [
      { name: "Items", description: "Minting and item history" },
      { name: "Collections", description: "One collection, or a filtered, sorted page of them" },
      {
        name: "Images",
        description:
          "The simulator's own pictures, drawn from a seed: what the worlds' `image` and `imageUrl` point at, so " +
          "every URL an answer holds works offline. Not part of the service's interface.",
      },
      {
        name: "Control",
        description:
          "The simulator's own control API (`/_sim`): time, snapshots, reset, collections, API keys, faults, the " +
          "request log. Not part of the service's interface. On without a token only when the API listens on " +
          "loopback.",
      },
    ],
    paths,
    components: {
      schemas: components.schemas,
      securitySchemes: {
        [ADMIN_SCHEME]: {
          type: "http",
          scheme: "bearer",
          description: "`--admin-token`: required by the control API when one is set (and to turn it on off loopback).",
        },
        [API_KEY_SCHEME]: {
          type: "apiKey",
          in: "query",
          name: "apiKey",
          description:
            `The account's API key; its developer wallet signs writes. In the default world, ` +
            `\`${examples.mintItem.request.query!.apiKey}\` may mint the example item.`,
        },
        [API_KEY_HEADER_SCHEME]: {
          type: "apiKey",
          in: "header",
          name: API_KEY_HEADER,
          description:
            "The same API key in a request header, as the original also takes it; sent with an `apiKey` query " +
            "parameter that names another key, the request is refused (400).",
        },
      },
    },
  };
}

/**
 * Every operation lists the server's own refusals too (src/http/error-exit.ts): the control API meets them as the
 * API does.
 */
function describeOperation(
  operation: Operation,
  components: SchemaComponents,
  errorBody: JsonSchema,
  examples: OperationExamples,
): JsonSchema {
  const parameters = [
    ...parametersOf(operation.params, "path", components, examples.request.params),
    ...parametersOf(operation.query, "query", components, examples.request.query).filter(
      (parameter) => !operation.authQuery?.includes(String(parameter.name)),
    ),
    // A write's header is its security scheme's; a read's is a parameter as its `apiKey` is.
    ...(operation.keyHeader && !operation.authQuery
      ? [
          {
            name: operation.keyHeader,
            in: "header",
            required: false,
            description: "ignored on reads, as the `apiKey` query parameter is (both, naming different keys: 400)",
            schema: { type: "string" },
          },
        ]
      : []),
  ];
  const described: JsonSchema = {
    operationId: operation.operationId,
    tags: [operation.tag],
    summary: operation.summary,
    description: operation.description,
    ...(parameters.length ? { parameters } : {}),
    responses: {
      200: {
        description: "OK",
        content: operation.media
          ? { [operation.media]: { schema: { type: "string", contentMediaType: operation.media } } }
          : {
              "application/json": {
                schema: components.use(operation.response, "response"),
                ...example(examples.response),
              },
            },
      },
      ...errorResponses(operation, errorBody, examples),
    },
  };
  if (operation.authQuery) described.security = [{ [API_KEY_SCHEME]: [] }, { [API_KEY_HEADER_SCHEME]: [] }];

  if (operation.body) {
    const schema = components.use(operation.body, "request");
    described.requestBody = {
      required: true,
      content: {
        "application/json": { schema, ...example(examples.request.body) },
        ...(operation.authQuery
          ? { "application/x-www-form-urlencoded": { schema, encoding: { item: { contentType: "application/json" } } } }
          : {}),
      },
    };
  }
  return described;
}

/** An operation's error answers by status (numeric keys: listed in ascending order), with their meanings and examples. */
function errorResponses(operation: Operation, errorBody: JsonSchema, examples: OperationExamples): JsonSchema {
  const errors = [...operation.errors, ...SERVER_REFUSALS];
  const responses: JsonSchema = {};
  for (const status of new Set(errors.map((error) => error.status))) {
    // What its errors mean, from the catalog: each code once, with what each of its errors means.
    const meanings = new Map<string, Set<string>>();
    for (const { code, means } of errors.filter((error) => error.status === status))
      meanings.set(code, (meanings.get(code) ?? new Set()).add(means));
    const described = [...meanings].map(([code, means]) => `\`${code}\`: ${[...means].join("; or ")}.`).join(" ");
    const shown = [examples.errors[status], SERVER_REFUSAL_EXAMPLES[status]].filter((example) => example !== undefined);
    const named = Object.fromEntries(shown.map(({ summary, body }) => [summary, { summary, value: body }]));
    responses[status] = {
      description: `${STATUS_TEXT[status] ?? "Error"}: ${described}`,
      content: { "application/json": { schema: errorBody, ...(shown.length ? { examples: named } : {}) } },
    };
  }
  return responses;
}

const example = (value: unknown): JsonSchema => (value === undefined ? {} : { example: value as JsonSchema });

function parametersOf(
  object: TObject | undefined,
  place: "path" | "query",
  components: SchemaComponents,
  examples: Record<string, unknown> = {},
): JsonSchema[] {
  if (!object) return [];
  const required = new Set(object.required ?? []);
  return Object.entries(object.properties).map(([name, schema]) => ({
    name,
    in: place,
    // The server fills a missing defaulted parameter in, so the caller need not send it.
    required: place === "path" || (required.has(name) && !hasDefault(schema)),
    ...(typeof schema.description === "string" ? { description: schema.description } : {}),
    schema: components.use(schema, "request"),
    ...example(examples[name]),
  }));
}

/**
 * The item-event union as a `oneOf` with a title per branch and a discriminator on `event`,
 * so documentation tools show each event kind (the server validates with the same branches).
 */
function discriminateItemEvents(schemas: Record<string, JsonSchema>): void {
  const branches = [
    { name: "TransferEvent", title: "Transfer (mint, transfer, burn)", events: TRANSFER_EVENTS },
    { name: "MarketEvent", title: "Marketplace event (listing, price, sale)", events: MARKET_EVENTS },
  ];
  for (const { name, title } of branches) schemas[name] = { title, ...schemas[name] };
  schemas.ItemEvent = {
    oneOf: branches.map(({ name }) => ({ $ref: `#/components/schemas/${name}` })),
    discriminator: {
      propertyName: "event",
      mapping: Object.fromEntries(
        branches.flatMap(({ name, events }) => events.map((event) => [event, `#/components/schemas/${name}`])),
      ),
    },
  };
}

/** `/api/v2/collection/:address` → `/api/v2/collection/{address}` */
export function openApiPath(koaPath: string): string {
  return koaPath.replace(/:([A-Za-z0-9_]+)/g, "{$1}");
}

function packageVersion(): string {
  const pkg = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as { version?: string };
  return pkg.version ?? "0.0.0";
}
