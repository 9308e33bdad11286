import type { Hex } from "viem";
import { addressOf } from "../core/keys.ts";
import type { World } from "./world.ts";

/**
 * `--fixture none`: no collections and no times to keep (the chains run on the wall clock); the
 * only world a node that cannot set block times can start. Each account of the given keys (--keys)
 * gets an API key, `sim-<name>`, whose developer wallet is that key's; otherwise API keys come from
 * the control API (POST /_sim/api-keys), and collections from POST /_sim/collections.
 */
export function emptyWorld(keys: ReadonlyMap<string, Hex> = new Map()): World {
  return {
    accounts: [...keys].map(([name, walletKey]) => ({
      apiKey: `sim-${name}`,
      name,
      walletKey,
      wallet: addressOf(walletKey),
    })),
    actorKeys: [],
    id: () =>
      `an empty world (--fixture none)${keys.size > 0 ? `, accounts ${[...keys.values()].map(addressOf).join(",")}` : ""}`,
    async seed() {},
  };
}
