import type { World } from "../simulator.ts";

/**
 * `--fixture none`: no collections, no API keys, no times to keep (the chains run on the wall
 * clock). API keys and collections come through the control API (POST /_sim/api-keys,
 * POST /_sim/collections); the only world a node that cannot set block times can start.
 */
export function emptyWorld(): World {
  return {
    accounts: [],
    actorKeys: [],
    id: () => "an empty world (--fixture none)",
    async seed() {},
  };
}
