import type { Hex } from "viem";
import type { ChainRegistry } from "./chain/registry.ts";
import type { ApiAccount } from "./core/config.ts";

/** What a world seeds into: the chains (written through their actions). */
export interface SeedTarget {
  /** The simulator's own base URL (collection `uri`s point at its metadata route by default). */
  url: string;
  chains: ChainRegistry;
  /** Chains that already hold this world (attached with --contracts): nothing is sent there, where it landed is read back. */
  attached?: ReadonlySet<number>;
}

/** What a world brings: API accounts, the other accounts it acts as, when it began, and how to seed it. */
export interface World {
  accounts: ApiAccount[];
  actorKeys: Hex[];
  genesisTime?: Date;
  /** The chains its seed writes to; a node's chain it leaves alone needs no block times (default: every chain). */
  chainIds?: readonly number[];
  seed(target: SeedTarget): Promise<void>;
  /** What makes this world the same on the next start (a journal only replays onto the world it was written on). */
  id?(url: string): string;
}
