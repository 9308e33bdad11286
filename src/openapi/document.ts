import { readFileSync } from "node:fs";
import type { TObject, TSchema } from "@sinclair/typebox";
import { ErrorBody } from "../schemas/error.ts";
import { MarketEvent, TransferEvent } from "../schemas/item-event.ts";
import { ItemDefinition, MintBody, Property, StoredItem } from "../schemas/mint.ts";
import { hasDefault, SchemaComponents, type JsonSchema } from "./json-schema.ts";
import { OPERATIONS, type Operation } from "../schemas/operations.ts";

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

const STATUS_TEXT: Record<number, string> = { 400: "Bad request", 401: "Unauthorized", 403: "Forbidden", 404: "Not found", 413: "Payload too large", 415: "Unsupported media type", 422: "Refused by the contract", 503: "Chain unavailable" };

/** The OpenAPI 3.1 document of the API, built from the same TypeBox schemas the server validates with. */
export function buildOpenApiDocument(): JsonSchema {
  const components = new SchemaComponents(NAMED);
  const errorBody = components.use(ErrorBody, "response");
  for (const { response } of OPERATIONS) components.use(response, "response");
  const paths: Record<string, Record<string, JsonSchema>> = {};
  for (const operation of OPERATIONS) {
    const path = openApiPath(operation.path);
    paths[path] = { ...paths[path], [operation.method]: describeOperation(operation, components, errorBody) };
  }
  return {
    openapi: "3.1.0",
    info: {
      title: "NFT item and collection service (simulator)",
      version: packageVersion(),
      description:
        "The v2 REST API of the NFT item and collection service, as the simulator serves it. Every answer comes from a real EVM chain. " +
        "Errors share one JSON body: `{ error, message, errors: string[] }`. Paged endpoints default to perPage 24 and page 1; " +
        "the collection list sorts by mintDate, descending, by default.",
    },
    tags: [
      { name: "Items", description: "Minting and item history" },
      { name: "Collections", description: "One collection, or a filtered, sorted page of them" },
    ],
    paths,
    components: {
      schemas: components.schemas,
      securitySchemes: { [API_KEY_SCHEME]: { type: "apiKey", in: "query", name: "apiKey", description: "The account's API key; its developer wallet signs writes." } },
    },
  };
}

function describeOperation(operation: Operation, components: SchemaComponents, errorBody: JsonSchema): JsonSchema {
  const parameters = [
    ...parametersOf(operation.params, "path", components),
    ...parametersOf(operation.query, "query", components).filter((parameter) => !operation.authQuery?.includes(String(parameter.name))),
  ];
  const described: JsonSchema = {
    operationId: operation.operationId,
    tags: [operation.tag],
    summary: operation.summary,
    description: operation.description,
    ...(parameters.length ? { parameters } : {}),
    responses: {
      200: { description: "OK", content: { "application/json": { schema: components.use(operation.response, "response") } } },
      ...Object.fromEntries(
        Object.entries(operation.errors).map(([status, description]) => [
          status,
          { description: `${STATUS_TEXT[Number(status)] ?? "Error"}: ${description}`, content: { "application/json": { schema: errorBody } } },
        ]),
      ),
    },
  };
  if (operation.authQuery) described.security = [{ [API_KEY_SCHEME]: [] }];
  if (operation.body) {
    const schema = components.use(operation.body, "request");
    described.requestBody = {
      required: true,
      content: {
        "application/json": { schema },
        "application/x-www-form-urlencoded": { schema, encoding: { item: { contentType: "application/json" } } },
      },
    };
  }
  return described;
}

function parametersOf(object: TObject | undefined, place: "path" | "query", components: SchemaComponents): JsonSchema[] {
  if (!object) return [];
  const required = new Set(object.required ?? []);
  return Object.entries(object.properties).map(([name, schema]) => {
    const converted = components.use(schema, "request");
    // The server fills a missing defaulted parameter in, so the caller need not send it.
    const parameter: JsonSchema = { name, in: place, required: place === "path" || (required.has(name) && !hasDefault(schema)) };
    if (typeof schema.description === "string") parameter.description = schema.description;
    parameter.schema = converted;
    return parameter;
  });
}

/** `/api/v2/collection/:address` → `/api/v2/collection/{address}` */
export function openApiPath(koaPath: string): string {
  return koaPath.replace(/:([A-Za-z0-9_]+)/g, "{$1}");
}

function packageVersion(): string {
  const pkg = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as { version?: string };
  return pkg.version ?? "0.0.0";
}
