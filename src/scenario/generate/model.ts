import type { ScenarioCollection, ScenarioItem } from "../../schemas/scenario.ts";
import type { Genre } from "./names.ts";

// The generator's model of the chain: what exists and who holds it, so it only writes
// actions the chain will accept.

export interface GenCollection {
  spec: ScenarioCollection;
  chainId: number;
  createdAt: number;
  genre: Genre;
  creators: string[];
  stablecoinShare: number;
  items: GenItem[];
}

export interface GenItem {
  spec: ScenarioItem;
  collection: GenCollection;
  addedAt: number;
  tokens: Token[];
}

export interface Token {
  item: GenItem;
  copy: number;
  supply: number;
  max: number;
  balances: Map<string, number>;
}

export interface Listing {
  name: string;
  token: Token;
  seller: string;
  remaining: number;
  currency: "native" | "stablecoin";
  open: boolean;
}

/** Moves tokens between holders; `undefined` is the marketplace's escrow (or the void). */
export function move(token: Token, from: string | undefined, to: string | undefined, amount: number): void {
  if (from !== undefined) {
    const left = (token.balances.get(from) ?? 0) - amount;
    if (left < 0) throw new Error(`generator bug: ${from} has too few of ${token.item.spec.id}`);
    if (left === 0) token.balances.delete(from);
    else token.balances.set(from, left);
  }
  if (to !== undefined) token.balances.set(to, (token.balances.get(to) ?? 0) + amount);
}

export function holderWithMost(token: Token): string | undefined {
  let best: [string, number] | undefined;
  for (const entry of token.balances) if (!best || entry[1] > best[1]) best = entry;
  return best?.[0];
}

export function copyOf(token: Token): { copy?: number } {
  return token.item.spec.isStackable ? {} : { copy: token.copy };
}
