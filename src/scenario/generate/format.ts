import { fileURLToPath } from "node:url";
import { ScenarioFileSchema, type Scenario } from "../../schemas/scenario.ts";

/** JSON with one collection, item or timeline entry per line: readable, and small diffs. */
export function formatScenario(scenario: Scenario): string {
  const lines = ["{"];
  const entries = Object.entries(scenario);
  entries.forEach(([key, value], i) => {
    const comma = i < entries.length - 1 ? "," : "";
    if (Array.isArray(value) && value.some((entry) => typeof entry === "object")) {
      lines.push(`  ${JSON.stringify(key)}: [`);
      value.forEach((entry, j) => lines.push(`    ${JSON.stringify(entry)}${j < value.length - 1 ? "," : ""}`));
      lines.push(`  ]${comma}`);
    } else {
      lines.push(`  ${JSON.stringify(key)}: ${JSON.stringify(value)}${comma}`);
    }
  });
  lines.push("}");
  return `${lines.join("\n")}\n`;
}

/** The scenario format as a JSON Schema file, for editors (`"$schema": "./scenario.schema.json"`). */
export function scenarioJsonSchema(): string {
  return `${JSON.stringify({ $schema: "http://json-schema.org/draft-07/schema#", title: "NFT service simulator scenario", ...ScenarioFileSchema }, null, 2)}\n`;
}

export const SCHEMA_FILE = fileURLToPath(new URL("../../../fixtures/scenario.schema.json", import.meta.url));
