import { readFileSync } from "node:fs";
import { foldWorld, type WorldFile } from "../src/msw/world-file.ts";
import { itemEvent } from "../src/views/item-event.ts";

// How many history event ids of a world name events on more than one chain (the interface has an id name one event
// record). Reads a world file as `npm run fixtures:export` writes it (default: the default world's).
//   node scripts/shared-event-ids.ts [fixtures/snapshots/world.json]

const file = process.argv[2] ?? "fixtures/snapshots/world.json";
const chains = foldWorld(JSON.parse(readFileSync(file, "utf8")) as WorldFile);
const idsOf = chains.map(
  (models) =>
    new Set(
      [...models.activity.values()].flatMap((activity) => activity.map((fact) => itemEvent(models.facts, fact).id)),
    ),
);
const seen = new Map<string, number>();
for (const ids of idsOf) for (const id of ids) seen.set(id, (seen.get(id) ?? 0) + 1);
const shared = [...seen].filter(([, chainsWithIt]) => chainsWithIt > 1).map(([id]) => id);
console.log(
  `${shared.length} event ids shared across chains (${chains.map((models, i) => `chain ${models.facts.chainId}: ${idsOf[i]!.size} ids`).join(", ")})` +
    (shared.length > 0 ? `, e.g. ${shared.slice(0, 3).join(", ")}` : ""),
);
