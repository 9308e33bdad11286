import type { ApiAccount } from "./config.ts";
import { addressOf, keyFor } from "./keys.ts";

/** The account an API key made through the control API has: its wallet's key derives from its name. */
export function apiKeyAccount(name: string, apiKey: string): ApiAccount {
  const walletKey = keyFor(`api-key/${name}`);
  return { apiKey, name, walletKey, wallet: addressOf(walletKey) };
}

/** The API keys callers may send, each with its account's developer wallet. */
export class Accounts {
  #byKey: Map<string, ApiAccount>;

  constructor(accounts: readonly ApiAccount[]) {
    this.#byKey = new Map(accounts.map((account) => [account.apiKey, account]));
  }

  byApiKey(apiKey: string): ApiAccount | undefined {
    return this.#byKey.get(apiKey);
  }

  byName(name: string): ApiAccount | undefined {
    return this.list().find((account) => account.name === name);
  }

  list(): ApiAccount[] {
    return [...this.#byKey.values()];
  }

  add(account: ApiAccount): void {
    this.#byKey.set(account.apiKey, account);
  }

  /** The keys as they are now, to come back to with `restore` (a snapshot). */
  snapshot(): readonly ApiAccount[] {
    return this.list();
  }

  restore(accounts: readonly ApiAccount[]): void {
    this.#byKey = new Map(accounts.map((account) => [account.apiKey, account]));
  }
}
