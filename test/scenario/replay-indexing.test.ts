import { readFileSync } from "node:fs";
import { afterAll, expect, it } from "vitest";
import { parseScenario } from "../../src/scenario/load.ts";
import { scenarioWorld } from "../../src/scenario/replay.ts";
import { SNAPSHOT_BASE_URL } from "../../src/scenario/worlds.ts";
import type { Simulator } from "../../src/simulator/simulator.ts";
import { startTestSimulator } from "../harness.ts";

// A chain's index reads its blocks while the replay goes on (every `indexEvery` steps): it ends with the models one
// read after the last step gives, and on the same head.

const SMALL = JSON.parse(readFileSync(new URL("./small-scenario.json", import.meta.url), "utf8"));
const started: Simulator[] = [];
afterAll(() => Promise.all(started.map((sim) => sim.close())));

async function indexed(indexEvery: number | undefined) {
  const world = scenarioWorld(parseScenario(SMALL), { baseUrl: SNAPSHOT_BASE_URL, indexEvery });
  const sim = await startTestSimulator(world);
  started.push(sim);
  return Promise.all(
    sim.chains.all().map(async (chain) => {
      const { models, headHash } = await chain.indexed();
      return { chainId: chain.chainId, headHash, models: { ...models, version: undefined } };
    }),
  );
}

it("indexes a replay read as it goes as it indexes one read at its end", async () => {
  const once = await indexed(1_000_000);
  const asItGoes = await indexed(1);
  expect(asItGoes.map(({ headHash }) => headHash)).toEqual(once.map(({ headHash }) => headHash));
  expect(asItGoes).toEqual(once);
}, 120_000);
