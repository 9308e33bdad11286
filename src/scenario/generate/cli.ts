import { writeFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { DEFAULT_WORLD_FILE } from "../worlds.ts";
import { formatScenario, SCHEMA_FILE, scenarioJsonSchema } from "./format.ts";
import { DEFAULT_SEED, generateWorld } from "./generator.ts";

// Writes the default world and the scenario JSON Schema (or, with --out, a world elsewhere):
//
//   npm run fixtures:generate                       → fixtures/default-world.json
//   npm run fixtures:generate -- --scale 10 --out /tmp/world-10x.json

const USAGE = `Usage: npm run fixtures:generate -- [options]

  --scale <n>    a world n times as large (default 1: the default world)
  --seed <n>     the PRNG seed (default ${DEFAULT_SEED})
  --out <file>   write the world there (default fixtures/default-world.json, which also rewrites
                 fixtures/scenario.schema.json)
  -h, --help     show this help`;

const { values } = parseArgs({
  options: {
    scale: { type: "string", default: "1" },
    seed: { type: "string" },
    out: { type: "string" },
    help: { type: "boolean", short: "h", default: false },
  },
  strict: true,
});
if (values.help) {
  console.log(USAGE);
  process.exit(0);
}
const scale = Number(values.scale);
const scenario = generateWorld({ scale, seed: values.seed === undefined ? undefined : Number(values.seed) });
const out = values.out ?? DEFAULT_WORLD_FILE;
writeFileSync(out, formatScenario(scenario));
if (!values.out) writeFileSync(SCHEMA_FILE, scenarioJsonSchema());
const counts = new Map<string, number>();
for (const entry of scenario.timeline) counts.set(entry.action, (counts.get(entry.action) ?? 0) + 1);
console.log(
  `${out}: ${scenario.collections.length} collections, ${scenario.items.length} items, ${scenario.timeline.length} ` +
    `timeline entries (${[...counts].map(([action, n]) => `${action} ${n}`).join(", ")})`,
);
