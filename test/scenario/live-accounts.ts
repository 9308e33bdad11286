import { readFileSync } from "node:fs";
import { parseScenario } from "../../src/scenario/load.ts";
import { scenarioWorld, type ScenarioWorldOptions } from "../../src/scenario/replay.ts";
import { SNAPSHOT_BASE_URL } from "../../src/scenario/worlds.ts";

// The small scenario with live accounts (as an imported world names them): its riders collection at a live address,
// owned by a live account without a key, and alice and bob at live addresses too.

const SMALL = JSON.parse(readFileSync(new URL("./small-scenario.json", import.meta.url), "utf8"));
export const PLACED = "0xdb0047cb1dfc44696f6e9868ef6bb40000280b05";
export const LORD = "0x7a6d17c77fe350011596572d73d332d6b0794f06";
export const ALICE = "0xe29f0b490f0d89ca7acac1c7bed2e07ecad65201";
export const BOB = "0x00000000000000000000000000000000000b0b01";

export function liveAccountsScenario() {
  const scenario = structuredClone(SMALL);
  scenario.accounts = [
    { name: "studio", keyLabel: "developer/studio" },
    { name: "guest" },
    { name: "lord", address: LORD.toUpperCase().replace("0X", "0x") },
    { name: "alice", address: ALICE },
    { name: "bob", address: BOB },
  ];
  // The live owner owns it (and announces it); the studio mints as a minter.
  Object.assign(scenario.collections[0], { address: PLACED, owner: "lord", minters: ["studio"] });
  return scenario;
}

export const liveAccountsWorld = (options: ScenarioWorldOptions = {}) =>
  scenarioWorld(parseScenario(liveAccountsScenario()), { baseUrl: SNAPSHOT_BASE_URL, ...options });
