import { Ajv } from "ajv";
import { describe, expect, it } from "vitest";
import { CONTROL_OPERATIONS } from "../../src/schemas/control-operations.ts";
import { SERVED_OPERATIONS } from "../../src/schemas/operations.ts";
import { ScenarioFileSchema } from "../../src/schemas/scenario.ts";

// The simulator compiles its schemas without checking them against the JSON Schema
// meta-schema (src/schemas/ajv.ts): that check happens here, once, for every one of them.

const parts = (operation: { params?: object; query?: object; body?: object; response: object }) =>
  Object.entries({
    params: operation.params,
    query: operation.query,
    body: operation.body,
    response: operation.response,
  }).filter(([, schema]) => schema !== undefined);

const schemas: [string, object][] = [
  ...[...SERVED_OPERATIONS, ...CONTROL_OPERATIONS].flatMap((operation) =>
    parts(operation).map(([part, schema]): [string, object] => [`${operation.operationId} ${part}`, schema!]),
  ),
  ["the scenario file", ScenarioFileSchema],
];

describe("every schema the simulator compiles is a well-formed JSON Schema", () => {
  const draft7 = new Ajv({ strict: false });
  it.each(schemas)("%s", (_name, schema) => {
    expect(draft7.validateSchema(schema), JSON.stringify(draft7.errors)).toBe(true);
  });

  it("and the check can fail: a schema with a type that does not exist is refused", () => {
    expect(draft7.validateSchema({ type: "integr" })).toBe(false);
    expect(draft7.validateSchema({ properties: { a: { minimum: "one" } } })).toBe(false);
  });
});
