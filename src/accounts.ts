import type { ApiAccount } from "./config.ts";

/** The API keys callers may send, each with its account's developer wallet. */
export class Accounts {
  readonly #byKey: Map<string, ApiAccount>;

  constructor(accounts: readonly ApiAccount[]) {
    this.#byKey = new Map(accounts.map((account) => [account.apiKey, account]));
  }

  byApiKey(apiKey: string): ApiAccount | undefined {
    return this.#byKey.get(apiKey);
  }

  list(): ApiAccount[] {
    return [...this.#byKey.values()];
  }
}
