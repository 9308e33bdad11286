import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { defaultWorldExamples, type ExampleRequest } from "../../src/openapi/examples.ts";
import { buildOpenApiDocument, DEFAULT_SERVER_URL } from "../../src/openapi/document.ts";
import { createAjv } from "../../src/schemas/ajv.ts";
import { OPERATIONS, pathOf, type Operation } from "../../src/schemas/operations.ts";
import { defaultWorld, SNAPSHOT_BASE_URL } from "../../src/scenario/worlds.ts";
import type { Simulator } from "../../src/simulator/simulator.ts";
import { startTestSimulator } from "../harness.ts";

// Every example the OpenAPI document carries is sent to a simulator running the default
// world: the answer must have the documented status, and an error example's exact body.

let sim: Simulator;
beforeAll(async () => {
  sim = await startTestSimulator(defaultWorld({ baseUrl: SNAPSHOT_BASE_URL }));
});
afterAll(() => sim?.close());

const examples = defaultWorldExamples();

async function send(operation: Operation, request: ExampleRequest): Promise<{ status: number; body: unknown }> {
  const query = new URLSearchParams(Object.entries(request.query ?? {}).map(([name, value]) => [name, String(value)]));
  const url = `${sim.url}${pathOf(operation, request.params)}${query.size ? `?${query}` : ""}`;
  const body = request.raw?.text ?? (request.body === undefined ? undefined : JSON.stringify(request.body));
  const headers = body === undefined ? undefined : { "content-type": request.raw?.contentType ?? "application/json" };
  const response = await fetch(url, { method: operation.method.toUpperCase(), headers, body });
  return { status: response.status, body: await response.json() };
}

// The mint last: it changes the world the reads' examples were taken from.
const ordered = [...OPERATIONS].sort((a, b) => Number(a.method === "post") - Number(b.method === "post"));

describe("the OpenAPI document's examples, against the default world", () => {
  for (const operation of ordered) {
    const { request, response, errors } = examples[operation.operationId];
    for (const [status, error] of Object.entries(errors)) {
      if (!error.request) continue;
      it(`${operation.operationId}: ${status} ${error.summary}`, async () => {
        expect(operation.errors.map((error) => String(error.status))).toContain(status);
        expect(await send(operation, error.request!)).toEqual({ status: Number(status), body: error.body });
      });
    }
    it(`${operation.operationId}: the request example answers 200 with a body its schema accepts${response ? ", as documented" : ""}`, async () => {
      const answer = await send(operation, request);
      expect(answer.status, JSON.stringify(answer.body)).toBe(200);
      const validate = createAjv().compile(operation.response);
      expect(validate(answer.body), JSON.stringify(validate.errors)).toBe(true);
      if (response) expect(answer.body).toEqual(response);
    });
  }

  it("only an outage, a stalled or rewound chain, a run of bad keys and a full disk have examples no one request causes (documented by their bodies)", () => {
    const bodyOnly = Object.entries(examples).flatMap(([id, { errors }]) =>
      Object.entries(errors)
        .filter(([, error]) => !error.request)
        .map(([status]) => `${id} ${status}`),
    );
    expect(bodyOnly).toEqual([
      "mintItem 409",
      "mintItem 429",
      "mintItem 503",
      "mintItem 504",
      "mintItem 507",
      "getItemEvents 503",
      "getCollection 503",
      "listCollections 503",
    ]);
  });

  it("every operation carries examples, the servers entry and a discriminated item-event union", () => {
    const document = buildOpenApiDocument() as any;
    expect(document.servers).toEqual([{ url: DEFAULT_SERVER_URL, description: "the simulator" }]);
    for (const operation of OPERATIONS) {
      const described = Object.values(document.paths)
        .flatMap((path: any) => Object.values(path))
        .find((op: any) => op.operationId === operation.operationId) as any;
      const hasRequestExample =
        described.requestBody?.content["application/json"].example ??
        described.parameters?.some((parameter: any) => parameter.example !== undefined);
      expect(hasRequestExample, operation.operationId).toBeTruthy();
      for (const status of new Set(operation.errors.map((error) => error.status)))
        expect(
          described.responses[status].content["application/json"].examples,
          `${operation.operationId} ${status}`,
        ).toBeDefined();
    }
    const union = document.components.schemas.ItemEvent;
    expect(union.oneOf).toHaveLength(2);
    expect(union.discriminator.mapping).toMatchObject({
      TransferSingle: "#/components/schemas/TransferEvent",
      Swapped: "#/components/schemas/MarketEvent",
    });
    expect(document.components.schemas.MarketEvent.title).toBeDefined();
  });

  it("the served document names the simulator it came from", async () => {
    const served = await (await fetch(`${sim.url}/openapi.json`)).json();
    expect(served.servers).toEqual([{ url: sim.url, description: "the simulator" }]);
  });
});
