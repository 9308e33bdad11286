import type { ApiAccount } from "../core/config.ts";
import { apiError, ERRORS } from "../core/errors.ts";
import { mintBodyFromForm } from "../schemas/mint-form.ts";
import type { mintItem } from "../schemas/operations.ts";
import { planMint } from "../services/mint-plan.ts";
import type { PipelineDeps, WriteHandler } from "./handlers.ts";

const FORM = "application/x-www-form-urlencoded";

/**
 * Mints a new item as the API key's developer wallet (`send`), once the API decided it may (`planMint`); an address
 * that keeps sending unknown keys is slowed down.
 */
export const mintWrite = ({ chains, accounts, send }: PipelineDeps): WriteHandler<typeof mintItem, ApiAccount> => {
  const failedKeys = new FailedKeys();
  return {
    kind: "write",
    admit(request, { query }) {
      const wait = failedKeys.retryAfter(request.client);
      if (wait > 0) {
        request.setHeader("retry-after", String(wait));
        throw apiError(ERRORS.TOO_MANY_UNKNOWN_KEYS, {}, { errors: [`retry in ${wait} s`] });
      }
      const account = accounts.byApiKey(query.apiKey);
      if (!account) {
        failedKeys.record(request.client);
        throw apiError(ERRORS.UNKNOWN_API_KEY, {});
      }
      if (!request.is(["application/json", FORM])) {
        const line = `content-type '${request.contentType || "(none)"}' is not supported`;
        throw apiError(ERRORS.UNSUPPORTED_MEDIA_TYPE, { expected: "application/json (or a form)" }, { errors: [line] });
      }
      return account;
    },
    bodyOf: (request) =>
      request.is([FORM]) ? mintBodyFromForm(request.body as Record<string, unknown>) : request.body,
    answer: async ({ body }, account) => send(account, await planMint(chains, body)),
  };
};

/**
 * Counts unknown API keys per client address in fixed one-minute windows, so that
 * guessing keys gets 429 after a generous number of tries. Memory stays bounded:
 * expired windows are swept, and at most `maxClients` addresses are tracked.
 */
export class FailedKeys {
  readonly #bounds: { limit: number; windowMs: number; maxClients: number };
  readonly #windows = new Map<string, { count: number; endsAt: number }>();

  constructor({ limit = 100, windowMs = 60_000, maxClients = 10_000 } = {}) {
    this.#bounds = { limit, windowMs, maxClients };
  }

  /** Seconds the client must wait before trying another key, or 0 if it may try now. */
  retryAfter(client: string, now = Date.now()): number {
    const window = this.#windows.get(client);
    if (!window || window.endsAt <= now || window.count < this.#bounds.limit) return 0;
    return Math.ceil((window.endsAt - now) / 1000);
  }

  record(client: string, now = Date.now()): void {
    const window = this.#windows.get(client);
    if (window && window.endsAt > now) {
      window.count += 1;
      return;
    }
    if (this.#windows.size >= this.#bounds.maxClients) this.#sweep(now);
    this.#windows.set(client, { count: 1, endsAt: now + this.#bounds.windowMs });
  }

  #sweep(now: number): void {
    for (const [client, window] of this.#windows) if (window.endsAt <= now) this.#windows.delete(client);
    while (this.#windows.size >= this.#bounds.maxClients) this.#windows.delete(this.#windows.keys().next().value!);
  }
}
