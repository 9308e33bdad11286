import type { Target } from "../contract-suite/target.ts";
import { contractWorld } from "../contract-suite/world.ts";
import { DEMO_ACCOUNTS } from "../demo/world.ts";
import { startSimulator, type Simulator } from "../simulator.ts";

export interface LocalTarget {
  sim: Simulator;
  target: Target;
  close(): Promise<void>;
}

/** A simulator in this process, on a free port, without JSON-RPC: the suite's target when no base URL is given. */
export async function startLocalTarget({ allowWrites = false } = {}): Promise<LocalTarget> {
  const { world, busyItem } = contractWorld();
  const sim = await startSimulator(world, { port: 0, serveRpc: false });
  const item = busyItem();
  return {
    sim,
    target: { baseUrl: sim.url, apiKey: DEMO_ACCOUNTS.studio.apiKey, collection: item.collection, tokenId: item.tokenId, chainId: item.chainId, allowWrites },
    close: () => sim.close(),
  };
}
