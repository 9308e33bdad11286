/**
 * Counts unknown API keys per client address in fixed one-minute windows, so that
 * guessing keys gets 429 after a generous number of tries. Memory stays bounded:
 * expired windows are swept, and at most `maxClients` addresses are tracked.
 */
export class FailedKeys {
  readonly #limit: number;
  readonly #windowMs: number;
  readonly #maxClients: number;
  readonly #windows = new Map<string, { count: number; endsAt: number }>();

  constructor({ limit = 100, windowMs = 60_000, maxClients = 10_000 } = {}) {
    this.#limit = limit;
    this.#windowMs = windowMs;
    this.#maxClients = maxClients;
  }

  /** Seconds the client must wait before trying another key, or 0 if it may try now. */
  retryAfter(client: string, now = Date.now()): number {
    const window = this.#windows.get(client);
    if (!window || window.endsAt <= now || window.count < this.#limit) return 0;
    return Math.ceil((window.endsAt - now) / 1000);
  }

  record(client: string, now = Date.now()): void {
    const window = this.#windows.get(client);
    if (window && window.endsAt > now) {
      window.count += 1;
      return;
    }
    if (this.#windows.size >= this.#maxClients) this.#sweep(now);
    this.#windows.set(client, { count: 1, endsAt: now + this.#windowMs });
  }

  #sweep(now: number): void {
    for (const [client, window] of this.#windows) if (window.endsAt <= now) this.#windows.delete(client);
    while (this.#windows.size >= this.#maxClients) this.#windows.delete(this.#windows.keys().next().value!);
  }
}
