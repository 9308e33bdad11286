import { AsyncLocalStorage } from "node:async_hooks";

/** The gates the current async context holds (inside `ChainGate.hold`). */
const holding = new AsyncLocalStorage<ReadonlySet<ChainGate>>();

/**
 * Who may touch one chain: any number of writers at once (`shared`), or one holder alone (`hold`),
 * which waits for the writers under way and keeps every other caller waiting, reads included
 * (`open`), until it is done. What the holder calls, however deep, passes: the hold follows its
 * async context. A fragment of a scenario applies under a hold, so nothing lands between its
 * transactions and nobody reads it half-applied.
 */
export class ChainGate {
  #writers = 0;
  #drained: (() => void) | undefined;
  /** Holds queued or running; `#held` resolves when the latest of them ends. */
  #holds = 0;
  #held: Promise<void> = Promise.resolve();

  /** Whether the calling context holds this gate. */
  heldHere(): boolean {
    return holding.getStore()?.has(this) ?? false;
  }

  /** Resolves once no hold is queued or running (at once for the holder). */
  async open(): Promise<void> {
    if (this.heldHere()) return;
    while (this.#holds > 0) await this.#held;
  }

  /** Runs a write beside others; a hold waits for it to end. */
  async shared<T>(work: () => Promise<T>): Promise<T> {
    if (this.heldHere()) return work();
    // No await between the last look at the holds and counting this writer in: a hold starting meanwhile would miss it.
    while (this.#holds > 0) await this.#held;
    this.#writers += 1;
    try {
      return await work();
    } finally {
      this.#writers -= 1;
      if (this.#writers === 0) this.#drained?.();
    }
  }

  /** Runs `work` alone, once the writers under way are done and earlier holds have ended. */
  async hold<T>(work: () => Promise<T>): Promise<T> {
    if (this.heldHere()) return work();
    this.#holds += 1;
    const earlier = this.#held;
    let release!: () => void;
    this.#held = new Promise((resolve) => (release = resolve));
    try {
      await earlier;
      while (this.#writers > 0) await new Promise<void>((resolve) => (this.#drained = resolve));
      this.#drained = undefined;
      return await holding.run(new Set([...(holding.getStore() ?? []), this]), work);
    } finally {
      this.#holds -= 1;
      release();
    }
  }
}
