import type { Accounts } from "../core/accounts.ts";
import type { ChainRegistry } from "../chain/registry.ts";

/** What the API's Koa face gives the pipeline: the chains (and their read models), the API keys, a mint's patience. */
export interface RouteDeps {
  chains: ChainRegistry;
  accounts: Accounts;
  /** How long a mint waits for its block before answering 504 MINT_PENDING. */
  mintTimeoutMs: number;
}
