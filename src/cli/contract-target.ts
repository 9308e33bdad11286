import type { Target } from "../contract-suite/target.ts";
import { CONTRACT_SUITE_WORLD_FILE, fixtureWorld } from "../scenario/world.ts";
import { startSimulator, type Simulator } from "../simulator.ts";

export interface LocalTarget {
  sim: Simulator;
  target: Target;
  close(): Promise<void>;
}

/** The scenario item whose history the suite reads on the local simulator (fixtures/contract-suite-world.json). */
const BUSY_ITEM = "busy-coin";
const API_KEY = "demo-studio-key";

/** A simulator in this process, on a free port, without JSON-RPC: the suite's target when no base URL is given. */
export async function startLocalTarget({ allowWrites = false } = {}): Promise<LocalTarget> {
  const world = fixtureWorld(CONTRACT_SUITE_WORLD_FILE);
  const sim = await startSimulator(world, { port: 0, serveRpc: false });
  const { chainId, collection, tokenIds } = world.landed.item(BUSY_ITEM);
  return {
    sim,
    target: { baseUrl: sim.url, apiKey: API_KEY, collection, tokenId: Number(tokenIds[0]), chainId, allowWrites },
    close: () => sim.close(),
  };
}
