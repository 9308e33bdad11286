import type { Accounts } from "../accounts.ts";
import type { ChainRegistry } from "../chain/registry.ts";
import type { MetadataStore } from "../metadata/store.ts";

/** What the routes may reach: the chains (and their read models), the off-chain metadata, the API keys. */
export interface RouteDeps {
  chains: ChainRegistry;
  metadata: MetadataStore;
  accounts: Accounts;
  /** How long a mint waits for its block before answering 504 MINT_PENDING. */
  mintTimeoutMs: number;
}
