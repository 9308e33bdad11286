import type { ScenarioCollection, ScenarioItem } from "../../schemas/scenario.ts";
import { decimal, type Rng } from "./random.ts";
import { DEVELOPERS, type Genre } from "./names.ts";
import { Timeline } from "./timeline.ts";

// The generator's model of the chain (what exists and who holds it) and its market, so it only writes actions the
// chain will accept.

export interface GenCollection {
  spec: ScenarioCollection;
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
  /** 0: closed (sold out or delisted). */
  remaining: number;
  currency: "native" | "stablecoin";
}

/** Moves tokens between holders; `undefined` is the marketplace's escrow (or the void). */
function move(token: Token, from: string | undefined, to: string | undefined, amount: number): void {
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

function copyOf(token: Token): { copy?: number } {
  return token.item.spec.isStackable ? {} : { copy: token.copy };
}

/** The market of the generated world: each action checks the model, updates it and writes its timeline entry. */
export class Market {
  rng: Rng;
  collectors: string[] = [];
  stablecoinBuyers: string[] = [];
  listings: Listing[] = [];
  timeline = new Timeline();

  constructor(rng: Rng) {
    this.rng = rng;
  }

  tokenToSell(collection: GenCollection): Token | undefined {
    const candidates = collection.items.flatMap((item) => item.tokens).filter((token) => this.holderOf(token, false));
    return candidates.length > 0 ? this.rng.pick(candidates) : undefined;
  }

  /** A holder with a free balance, collectors before developers. */
  holderOf(token: Token, pickRandom = true): string | undefined {
    const holders = [...token.balances].filter(([, balance]) => balance > 0).map(([holder]) => holder);
    if (holders.length === 0) return undefined;
    const collectors = holders.filter((holder) => !DEVELOPERS.some((dev) => dev.name === holder));
    const pool = collectors.length > 0 && this.rng.chance(0.8) ? collectors : holders;
    return pickRandom ? this.rng.pick(pool) : pool[0];
  }

  price(token: Token, currency: "native" | "stablecoin"): string {
    const { rng } = this;
    const hot = token.supply > 100_000;
    if (currency === "stablecoin")
      return hot ? decimal(rng.int(1, 60) / 100, 2) : decimal(rng.int(50, 25_000) / 100, 2);
    // Every sale is worth at least a cent (worth is rounded to cents).
    if (token.item.collection.spec.chainId === 56)
      return hot ? decimal(rng.int(10, 250) / 100_000, 5) : decimal(rng.int(5, 15_000) / 10_000, 4);
    return hot ? decimal(rng.int(5, 150) / 100, 2) : decimal(rng.int(100, 40_000) / 100, 2);
  }

  list(token: Token, seller: string, amount: number, currency: "native" | "stablecoin"): Listing {
    const listing: Listing = {
      name: `l${this.listings.length + 1}`,
      token,
      seller,
      remaining: amount,
      currency,
    };
    this.listings.push(listing);
    move(token, seller, undefined, amount);
    this.timeline.emit({
      action: "list",
      listing: listing.name,
      item: token.item.spec.id,
      ...copyOf(token),
      seller,
      amount,
      price: this.price(token, currency),
      currency,
    });
    return listing;
  }

  buy(listing: Listing, amount: number): void {
    if (amount < 1 || amount > listing.remaining) return;
    const pool = listing.currency === "stablecoin" ? this.stablecoinBuyers : this.collectors;
    const buyer = this.rng.pick(pool.filter((name) => name !== listing.seller));
    listing.remaining -= amount;
    move(listing.token, undefined, buyer, amount);
    this.timeline.emit({ action: "buy", listing: listing.name, buyer, amount });
  }

  updatePrice(listing: Listing): void {
    if (listing.remaining === 0) return;
    this.timeline.emit({
      action: "updatePrice",
      listing: listing.name,
      price: this.price(listing.token, listing.currency),
    });
  }

  addToListing(listing: Listing): void {
    const free = listing.token.balances.get(listing.seller) ?? 0;
    if (listing.remaining === 0 || free < 1) return;
    const amount = this.rng.int(1, Math.min(free, 10));
    move(listing.token, listing.seller, undefined, amount);
    listing.remaining += amount;
    this.timeline.emit({ action: "addToListing", listing: listing.name, amount });
  }

  removeFromListing(listing: Listing): void {
    if (listing.remaining < 2) return;
    const amount = this.rng.int(1, listing.remaining - 1);
    move(listing.token, undefined, listing.seller, amount);
    listing.remaining -= amount;
    this.timeline.emit({ action: "removeFromListing", listing: listing.name, amount });
  }

  delist(listing: Listing): void {
    if (listing.remaining === 0) return;
    move(listing.token, undefined, listing.seller, listing.remaining);
    listing.remaining = 0;
    this.timeline.emit({ action: "delist", listing: listing.name });
  }

  transfer(token: Token, from: string | undefined, to: string, amount: number): void {
    const free = from ? (token.balances.get(from) ?? 0) : 0;
    if (!from || free < 1 || from === to) return;
    const moved = Math.min(free, amount);
    move(token, from, to, moved);
    this.timeline.emit({ action: "transfer", item: token.item.spec.id, ...copyOf(token), from, to, amount: moved });
  }

  giveAway(item: GenItem): void {
    const token = this.rng.pick(item.tokens);
    if (!token) return;
    const from = this.holderOf(token);
    const free = from ? token.balances.get(from)! : 0;
    this.transfer(token, from, this.rng.pick(this.collectors), Math.max(1, Math.floor(free / this.rng.int(2, 5))));
  }

  /** A holder sends several tokens of one collection in one safeBatchTransferFrom. */
  batchGift(collection: GenCollection): void {
    const byHolder = new Map<string, Token[]>();
    for (const token of collection.items.flatMap((item) => item.tokens)) {
      for (const [holder, balance] of token.balances)
        if (balance > 0) byHolder.set(holder, [...(byHolder.get(holder) ?? []), token]);
    }
    const candidates = [...byHolder].filter(([, tokens]) => tokens.length >= 2);
    if (candidates.length === 0) return;
    const [from, tokens] = this.rng.pick(candidates);
    const to = this.rng.pick(this.collectors.filter((name) => name !== from));
    const chosen = tokens.slice(0, this.rng.int(2, Math.min(4, tokens.length)));
    const entries = chosen.map((token) => {
      const amount = Math.max(1, Math.floor(token.balances.get(from)! / 2));
      move(token, from, to, amount);
      return { item: token.item.spec.id, ...copyOf(token), amount };
    });
    this.timeline.emit({ action: "transferBatch", from, to, items: entries });
  }

  mintMore(item: GenItem, by: string): void {
    const token = item.tokens[0];
    if (!token || token.supply >= token.max) return;
    const amount = Math.max(1, Math.floor(((token.max - token.supply) * this.rng.int(5, 30)) / 100));
    const to = this.rng.chance(0.5) ? by : this.rng.pick(this.collectors);
    token.supply += amount;
    token.balances.set(to, (token.balances.get(to) ?? 0) + amount);
    this.timeline.emit({ action: "mint", item: item.spec.id, by, to, amount });
  }

  burn(item: GenItem): void {
    const token = item.tokens[0];
    const from = token && this.holderOf(token);
    if (!token || !from) return;
    const amount = Math.max(1, Math.floor((token.balances.get(from)! * this.rng.int(5, 40)) / 100));
    move(token, from, undefined, amount);
    token.supply -= amount;
    this.timeline.emit({ action: "burn", item: item.spec.id, from, amount });
  }
}
