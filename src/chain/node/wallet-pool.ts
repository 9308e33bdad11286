import type { Address } from "viem";

// How long a wallet another writer was found sending from is left to it (with a random part, so that two instances
// that left one wallet do not come back to it together).
const SHARED_HOLD_OFF_MS = 10_000;
// How long a wallet that could not pay for gas is left out before it is tried again (someone may have funded it).
const UNFUNDED_HOLD_OFF_MS = 10_000;

// A process takes another wallet of the pool only while this many of its sends wait on each of those it sends from.
const EXPAND_AT = 4;

type Why = "shared" | "unfunded";

/**
 * The wallets that sign for one developer wallet (its own first, from the keys file), as this process hands them out.
 * Instances do not talk to each other: each tries the pool in an order of its own (random per process), so two rarely
 * reach for the same wallet, and the node settles any clash: a wallet's next nonce is taken by one transaction only. A
 * wallet this process finds another writer sending from (its nonce taken, or moved by someone else) is left to that
 * writer for a while; one that cannot pay for gas is left out until it may have been funded.
 */
export class WalletPool {
  readonly wallets: readonly Address[];
  /** This process's order of preference. */
  readonly #order: Address[];
  readonly #aside = new Map<Address, { until: number; why: Why }>();

  constructor(wallets: readonly Address[], random: () => number = Math.random) {
    this.wallets = wallets;
    this.#order = shuffled(wallets, random);
  }

  /**
   * The wallet the next send takes. One wallet's sends take a round trip each, so a process keeps to as few as it can:
   * the wallets it is sending from already (while fewer than EXPAND_AT sends wait on one), else the first free one in
   * its own order that is not left aside. When none is free, it waits its turn on the least busy of its own; with none
   * of its own either, on the least busy that can pay (or, none can, of all: one may have been funded since).
   */
  pick(waiting: (wallet: Address) => number): Address {
    const now = Date.now();
    const usable = (wallet: Address) => !((this.#aside.get(wallet)?.until ?? 0) > now);
    const unfunded = new Set(this.unfundedNow());
    const held = this.#order.filter((wallet) => waiting(wallet) > 0);
    const leastBusy = (wallets: Address[]) =>
      wallets.length === 0
        ? undefined
        : wallets.reduce((best, wallet) => (waiting(wallet) < waiting(best) ? wallet : best));
    return (
      held.find((wallet) => usable(wallet) && waiting(wallet) < EXPAND_AT) ??
      this.#order.find((wallet) => usable(wallet) && waiting(wallet) === 0) ??
      leastBusy(held.filter(usable)) ??
      leastBusy(held) ??
      leastBusy(this.#order.filter((wallet) => !unfunded.has(wallet))) ??
      leastBusy(this.#order)!
    );
  }

  /** Another writer sends from `wallet`: this process leaves it for a while. */
  sharedWith(wallet: Address, random: () => number = Math.random): void {
    if (this.unfundedNow().includes(wallet)) return;
    this.#aside.set(wallet, { until: Date.now() + SHARED_HOLD_OFF_MS * (1 + random()), why: "shared" });
  }

  /** `wallet` cannot pay for gas: left out for a while. */
  unfunded(wallet: Address): void {
    this.#aside.set(wallet, { until: Date.now() + UNFUNDED_HOLD_OFF_MS, why: "unfunded" });
  }

  /** The wallets left out for want of gas now. */
  unfundedNow(): Address[] {
    const now = Date.now();
    return this.wallets.filter((wallet) => {
      const entry = this.#aside.get(wallet);
      return entry?.why === "unfunded" && entry.until > now;
    });
  }
}

function shuffled<T>(items: readonly T[], random: () => number): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}
