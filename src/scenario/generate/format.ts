import { fileURLToPath } from "node:url";
import { ScenarioFileSchema, type Scenario } from "../../schemas/scenario.ts";

/** JSON with one collection, item or timeline entry per line: readable, and small diffs. */
export function formatScenario(scenario: Scenario): string {
  const fields = Object.entries(scenario).map(([key, value]) =>
    Array.isArray(value) && value.some((entry) => typeof entry === "object")
      ? `  ${JSON.stringify(key)}: [\n${value.map((entry) => `    ${JSON.stringify(entry)}`).join(",\n")}\n  ]`
      : `  ${JSON.stringify(key)}: ${JSON.stringify(value)}`,
  );
  return `{\n${fields.join(",\n")}\n}\n`;
}

/** The scenario format as a JSON Schema file, for editors (`"$schema": "./scenario.schema.json"`). */
export function scenarioJsonSchema(): string {
  return `${JSON.stringify({ $schema: "http://json-schema.org/draft-07/schema#", title: "NFT service simulator scenario", ...ScenarioFileSchema }, null, 2)}\n`;
}

export const SCHEMA_FILE = fileURLToPath(new URL("../../../fixtures/scenario.schema.json", import.meta.url));
