import type { Address } from "viem";
import { afterEach, describe, expect, it, vi } from "vitest";
import { WalletPool } from "../../src/chain/node/wallet-pool.ts";

// How one process hands out the wallets of a pool (no chain: which wallet a send takes, given what waits on each).

const wallets = ["0x01", "0x02", "0x03", "0x04"].map((w) => w.padEnd(42, "0")) as Address[];
const idle = () => 0;

describe("a pool of wallets, as one process hands them out", () => {
  afterEach(() => vi.useRealTimers());

  it("keeps to the wallet it sends from while few sends wait on it, takes the next free one after, the least busy when none is free", () => {
    const pool = new WalletPool(wallets);
    const first = pool.pick(idle);
    expect(wallets).toContain(first);
    const busy = new Map<Address, number>([[first, 3]]);
    const waiting = (wallet: Address) => busy.get(wallet) ?? 0;
    expect(pool.pick(waiting)).toBe(first);
    busy.set(first, 4);
    const second = pool.pick(waiting);
    expect(second).not.toBe(first);
    busy.set(second, 1);
    expect(pool.pick(waiting)).toBe(second);
    for (const wallet of wallets) busy.set(wallet, 5);
    busy.set(wallets[2]!, 4);
    expect(pool.pick(waiting)).toBe(wallets[2]);
  });

  it("tries the wallets in an order of its own: processes rarely reach for the same first", () => {
    const firsts = new Set(Array.from({ length: 40 }, () => new WalletPool(wallets).pick(idle)));
    expect(firsts.size).toBeGreaterThan(1);
  });

  it("leaves a wallet another writer sends from to it for a while, and takes it again after", () => {
    vi.useFakeTimers();
    const pool = new WalletPool(wallets);
    const first = pool.pick(idle)!;
    pool.sharedWith(first);
    expect(pool.pick(idle)).not.toBe(first);
    vi.advanceTimersByTime(20_001);
    expect(pool.pick(idle)).toBe(first);
  });

  it("with every wallet left to others, takes one that can pay; with none able to pay, still one (it may be funded since)", () => {
    const pool = new WalletPool(wallets);
    for (const wallet of wallets) pool.sharedWith(wallet);
    pool.unfunded(wallets[0]!);
    expect(pool.unfundedNow()).toEqual([wallets[0]]);
    for (let i = 0; i < 20; i++) expect(wallets.slice(1)).toContain(pool.pick(idle));
    for (const wallet of wallets) pool.unfunded(wallet);
    expect(pool.unfundedNow()).toEqual(wallets);
    expect(wallets).toContain(pool.pick(idle));
  });
});
