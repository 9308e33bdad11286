import type { Address } from "viem";

/**
 * Each wallet's sends from this process, one at a time, and the nonce its next one takes: counted here from what the
 * node answered last (so a send needs no round trip to ask for it), and learned from the node again whenever the
 * count may be wrong (a refusal, another writer, the chain going back).
 */
export class WalletQueues {
  readonly #turns = new Map<Address, Promise<unknown>>();
  readonly #waiting = new Map<Address, number>();
  /** The nonce each wallet's next send takes, where known here (the node's count, or one past what it just took). */
  readonly next = new Map<Address, number>();

  /** Runs `send` once the wallet's earlier sends from this process are done. */
  inTurn<T>(wallet: Address, send: () => Promise<T>): Promise<T> {
    this.#waiting.set(wallet, (this.#waiting.get(wallet) ?? 0) + 1);
    const turn = (this.#turns.get(wallet) ?? Promise.resolve()).then(send);
    const settled = turn.catch(() => undefined);
    this.#turns.set(wallet, settled);
    void settled.then(() => {
      const left = this.#waiting.get(wallet)! - 1;
      if (left === 0) this.#waiting.delete(wallet);
      else this.#waiting.set(wallet, left);
      if (this.#turns.get(wallet) === settled) this.#turns.delete(wallet);
    });
    return turn;
  }

  /** Sends of this process waiting on the wallet or under way. */
  waiting(wallet: Address): number {
    return this.#waiting.get(wallet) ?? 0;
  }

  /** Asks the node again before the next send (of `wallet`, or of every wallet: the chain may have gone back). */
  forget(wallet?: Address): void {
    if (wallet === undefined) this.next.clear();
    else this.next.delete(wallet);
  }
}
