export const MINUTE = 60;
export const HOUR = 3_600;
export const DAY = 86_400;

/** mulberry32: a small, fast, seedable PRNG; the same seed gives the same world. */
export class Rng {
  #state: number;
  constructor(seed: number) {
    this.#state = seed >>> 0;
  }
  next(): number {
    let t = (this.#state = (this.#state + 0x6d2b79f5) >>> 0);
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  }
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
  pick<T>(list: readonly T[]): T {
    return list[Math.floor(this.next() * list.length)]!;
  }
  weighted<T>(entries: readonly (readonly [T, number])[]): T {
    const total = entries.reduce((sum, [, weight]) => sum + weight, 0);
    let roll = this.next() * total;
    for (const [value, weight] of entries) if ((roll -= weight) < 0) return value;
    return entries[entries.length - 1]![0];
  }
  /** A time (seconds before now, ≤ 0) between two others, on a whole minute. */
  time(from: number, to: number): number {
    const lo = Math.ceil(from / MINUTE);
    const hi = Math.floor(to / MINUTE);
    return (hi <= lo ? lo : this.int(lo, hi)) * MINUTE;
  }
}

/** A number with at most `digits` decimals, its fraction's trailing zeros dropped (an integer's are its own: "10"). */
export function decimal(value: number, digits: number): string {
  return value
    .toFixed(digits)
    .replace(/(\.\d*?)0+$/, "$1")
    .replace(/\.$/, "");
}

const BASE58 = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz";
/** A random base58 string, shaped like an IPFS hash. */
export function hash(rng: Rng, length: number): string {
  return Array.from({ length }, () => rng.pick([...BASE58])).join("");
}
