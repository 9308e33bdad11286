import { readFileSync } from "node:fs";
import { afterAll, beforeAll } from "vitest";
import { isStartError, START_ERRORS } from "../../src/core/errors.ts";
import { parseScenario } from "../../src/scenario/load.ts";
import type { Simulator } from "../../src/simulator/simulator.ts";
import { call, postJson, startDemo, type Answer } from "../harness.ts";

// What the tests of src/timeline/ share: the small scenario of test/scenario/ changed and checked by the scenario
// loader (an action's checks, no chain), and the demo world started for one test file (an action's rules and its
// transactions, through POST /_sim/scenario).

const SMALL = JSON.parse(readFileSync(new URL("../scenario/small-scenario.json", import.meta.url), "utf8"));

/**
 * The problems the scenario loader finds in the small scenario with `change` made (its timeline has entries 0-15: the
 * items coin (stackable, riders, alice), badge (3 tokens, riders, alice) and tile (tiles, bob); listings c1 and t1,
 * both closed by the end); [] when it takes it.
 */
export function problemsOf(change: (scenario: any) => void): string[] {
  const copy = structuredClone(SMALL);
  change(copy);
  try {
    parseScenario(copy, "test.json");
    return [];
  } catch (error) {
    if (!isStartError(error, START_ERRORS.SCENARIO_INVALID)) throw error;
    return error.problems;
  }
}

export interface Demo {
  readonly sim: Simulator;
  /** Applies a fragment to the world. */
  arrange(fragment: unknown): Promise<Answer>;
  /** The world by handle (GET /_sim/world). */
  world(): Promise<any>;
  /** The events of one token, newest first. */
  history(item: string, copy?: number): Promise<any[]>;
}

/**
 * The demo world (fixtures/demo-world.json), started for the test file: sky-saddle (10 to alice, 4 of them listed as
 * sky-saddle-sale, 2 sold to bob), dragon-egg (3 tokens, bob), healing-brew (50 to bob, its listing closed); studio
 * owns every collection, arcade is a minter of each, guest neither.
 */
export function demoWorld(): Demo {
  let sim: Simulator | undefined;
  beforeAll(async () => {
    sim = await startDemo();
  });
  afterAll(() => sim?.close());
  const demo: Demo = {
    get sim() {
      return sim!;
    },
    arrange: (fragment) => postJson(sim!, "/_sim/scenario", fragment),
    world: async () => (await call(sim!, "/_sim/world")).body,
    async history(item, copy = 1) {
      const { collection, tokenIds } = (await demo.world()).items[item];
      return (await call(sim!, `/api/v2/item/events/${collection}/${tokenIds[copy - 1]}?perPage=100`)).body.events;
    },
  };
  return demo;
}

/** The events one transaction made, by kind. */
export function eventsOf(history: any[], txHash: string): string[] {
  return history
    .filter((event) => event.transactionHash === txHash)
    .map((event) => event.event)
    .sort();
}
