import { parseUnits, zeroAddress, type Address } from "viem";
import { CURRENCY_DECIMALS } from "../chain/currencies.ts";
import type { ChainRegistry } from "../chain/registry.ts";
import type { SimChain } from "../chain/sim-chain.ts";
import { hasMinterRole } from "../chain/actions/minter-role.ts";
import { itemKey, type ReadModels } from "../indexer/models.ts";
import { marketListing } from "../scenario/chain-reads.ts";
import type { CheckedFragment } from "../schemas/fragment.ts";
import type { WorldHandles } from "../core/handles.ts";
import type { Step } from "../scenario/references.ts";
import type { ActionName, ActionOf, ScenarioItem } from "../schemas/scenario.ts";

/**
 * What the rule checks read: the world's chains and handles, the fragment, and the addresses of the accounts it adds.
 */
export interface RuleContext {
  chains: ChainRegistry;
  handles: WorldHandles;
  fragment: CheckedFragment;
  /** Every account the fragment may name (the world's and its own), by name. */
  addresses: ReadonlyMap<string, Address>;
  /** The accounts it adds, and the coin each is given on every chain. */
  added: { names: ReadonlySet<string>; coin: bigint };
}

interface LedgerListing {
  item: string;
  copy: number;
  seller: string;
  /** Per item, in the currency's smallest unit. */
  price: bigint;
  native: boolean;
  /** Still in escrow. */
  remaining: bigint;
}

type Rule<Name extends ActionName> = (ledger: Ledger, action: ActionOf<Name>, path: string) => Promise<void>;

/**
 * The contract rules a fragment can be checked against before anything is sent, walking its steps
 * in order from what the read models hold: who may create items and mint (the minter role, the
 * item's creator), supply under its maximum, balances enough for every transfer, burn and listing,
 * and native coin enough for every purchase. Each broken rule is a line naming the entry; what these
 * cannot foresee is caught when the transaction reverts, and the fragment is rolled back.
 */
export async function brokenRules(steps: Step[], context: RuleContext): Promise<string[]> {
  const models = new Map((await context.chains.read()).map((read) => [read.chain.chainId, read.models]));
  const ledger = new Ledger(context, models);
  for (const step of steps) {
    if (step.kind === "collection") continue;
    await (RULES[step.action.action] as Rule<ActionName>)(ledger, step.action, step.path);
  }
  return ledger.problems;
}

const RULES: { [Name in ActionName]: Rule<Name> } = {
  async addItem(ledger, action, path) {
    await ledger.needMinter(path, action.by, action.item);
    const item = ledger.newItem(action.item)!;
    const copies = item.isStackable === false ? item.initialSupply : 1;
    const amount = item.isStackable === false ? 1n : BigInt(item.initialSupply);
    for (let copy = 1; copy <= copies; copy += 1) ledger.credit(action.item, copy, action.to, amount);
    ledger.supply.set(action.item, amount);
  },
  async mint(ledger, action, path) {
    await ledger.needMinter(path, action.by, action.item, true);
    const [supply, max] = await ledger.supplyOf(action.item);
    if (supply + BigInt(action.amount) > max)
      ledger.problems.push(
        `${path}.amount: minting ${action.amount} more of item '${action.item}' (${supply} of at most ${max}) passes its maximum supply`,
      );
    ledger.supply.set(action.item, supply + BigInt(action.amount));
    ledger.credit(action.item, 1, action.to, BigInt(action.amount));
  },
  async transfer(ledger, action, path) {
    await ledger.debit(path, action.item, action.copy ?? 1, action.from, BigInt(action.amount));
    ledger.credit(action.item, action.copy ?? 1, action.to, BigInt(action.amount));
  },
  async transferBatch(ledger, action, path) {
    for (const [j, entry] of action.items.entries()) {
      await ledger.debit(`${path}.items[${j}]`, entry.item, entry.copy ?? 1, action.from, BigInt(entry.amount));
      ledger.credit(entry.item, entry.copy ?? 1, action.to, BigInt(entry.amount));
    }
  },
  async burn(ledger, action, path) {
    await ledger.debit(path, action.item, action.copy ?? 1, action.from, BigInt(action.amount));
  },
  async list(ledger, action, path) {
    await ledger.debit(path, action.item, action.copy ?? 1, action.seller, BigInt(action.amount));
    const native = action.currency === "native";
    const price = parseUnits(action.price, CURRENCY_DECIMALS[action.currency]);
    const { item, copy = 1, seller } = action;
    ledger.listings.set(action.listing, { item, copy, seller, price, native, remaining: BigInt(action.amount) });
  },
  async updatePrice(ledger, action) {
    const listing = await ledger.listing(action.listing);
    if (listing) listing.price = parseUnits(action.price, CURRENCY_DECIMALS[listing.native ? "native" : "stablecoin"]);
  },
  async addToListing(ledger, action, path) {
    const listing = await ledger.listing(action.listing);
    if (!listing) return;
    await ledger.debit(path, listing.item, listing.copy, listing.seller, BigInt(action.amount));
    listing.remaining += BigInt(action.amount);
  },
  async removeFromListing(ledger, action) {
    const listing = await ledger.listing(action.listing);
    if (!listing) return;
    ledger.credit(listing.item, listing.copy, listing.seller, BigInt(action.amount));
    listing.remaining -= BigInt(action.amount);
  },
  async delist(ledger, action) {
    const listing = await ledger.listing(action.listing);
    if (!listing) return;
    ledger.credit(listing.item, listing.copy, listing.seller, listing.remaining);
    listing.remaining = 0n;
  },
  async buy(ledger, action, path) {
    const listing = await ledger.listing(action.listing);
    if (!listing) return;
    ledger.credit(listing.item, listing.copy, action.buyer, BigInt(action.amount));
    listing.remaining -= BigInt(action.amount);
    if (listing.native) await ledger.pay(path, action.buyer, listing, BigInt(action.amount));
  },
};

/** Balances, supplies and coin as the steps so far leave them, read from the world where the fragment has not said. */
class Ledger {
  readonly problems: string[] = [];
  readonly supply = new Map<string, bigint>();
  readonly listings = new Map<string, LedgerListing>();
  readonly #balances = new Map<string, bigint>();
  readonly #coins = new Map<string, bigint>();
  readonly #roles = new Map<string, boolean>();
  readonly #context: RuleContext;
  readonly #models: ReadonlyMap<number, ReadModels>;
  readonly #newItems: Map<string, ScenarioItem>;
  readonly #creators = new Map<string, string>();

  constructor(context: RuleContext, models: ReadonlyMap<number, ReadModels>) {
    this.#context = context;
    this.#models = models;
    this.#newItems = new Map(context.fragment.items.map((item) => [item.id, item]));
  }

  newItem(id: string): ScenarioItem | undefined {
    return this.#newItems.get(id);
  }

  credit(item: string, copy: number, holder: string, amount: bigint): void {
    const key = `${item}#${copy}@${holder}`;
    this.#balances.set(key, (this.#balances.get(key) ?? this.#worldBalance(item, copy, holder)) + amount);
  }

  async debit(path: string, item: string, copy: number, holder: string, amount: bigint): Promise<void> {
    const key = `${item}#${copy}@${holder}`;
    const held = this.#balances.get(key) ?? this.#worldBalance(item, copy, holder);
    if (held < amount) {
      const which = copy > 1 ? ` (copy ${copy})` : "";
      this.problems.push(`${path}.amount: '${holder}' holds ${held} of item '${item}'${which}, not ${amount}`);
    }
    this.#balances.set(key, held - amount);
  }

  /** The item's supply and its maximum (a stackable item). */
  async supplyOf(item: string): Promise<[bigint, bigint]> {
    const created = this.newItem(item);
    if (created) return [this.supply.get(item) ?? 0n, BigInt(created.maximumSupply ?? created.initialSupply)];
    const { models, key } = this.#worldToken(item, 1)!;
    const record = models.items.get(key)!;
    const held = [...(models.balances.get(key)?.values() ?? [])].reduce((sum, amount) => sum + amount, 0n);
    return [this.supply.get(item) ?? held, record.maxSupply];
  }

  /** `by` holds the minter role on the item's collection (or, for `mint`, created the item). */
  async needMinter(path: string, by: string, item: string, creatorMay = false): Promise<void> {
    const created = this.newItem(item);
    const collectionName = created?.collection ?? this.#collectionNameOf(item);
    const fromFragment = this.#context.fragment.collections.find((collection) => collection.id === collectionName);
    let allowed: boolean;
    if (fromFragment) allowed = fromFragment.owner === by || fromFragment.minters.includes(by);
    else {
      const landed = this.#context.handles.collections.get(collectionName!)!;
      const key = `${landed.address}@${by}`;
      if (!this.#roles.has(key)) {
        const chain = this.#context.chains.get(landed.chainId)!;
        const wallet = this.#context.addresses.get(by)!;
        this.#roles.set(key, await hasMinterRole(chain, { collection: landed.address, wallet }));
      }
      allowed = this.#roles.get(key)!;
    }
    if (!allowed && creatorMay) allowed = (await this.#creatorOf(item)) === by;
    if (created && !this.#creators.has(item)) this.#creators.set(item, by);
    if (!allowed)
      this.problems.push(
        `${path}.by: '${by}' does not hold the minter role on collection '${collectionName}'${creatorMay ? ` and did not create item '${item}'` : ""}`,
      );
  }

  /** A listing the fragment names: one it opens, or the world's as the marketplace holds it. */
  async listing(name: string): Promise<LedgerListing | undefined> {
    const opened = this.listings.get(name);
    if (opened) return opened;
    const landed = this.#context.handles.listings.get(name);
    const chain = landed && this.#context.chains.get(landed.chainId);
    if (!landed || !chain) return undefined;
    const held = await marketListing(chain, landed.listingId);
    const item = [...this.#context.handles.items].find(
      ([, found]) => found.collection === held.collection && found.tokenIds.includes(held.tokenId),
    );
    const seller = this.#context.handles.nameOf(held.seller);
    if (!item || !seller) return undefined;
    const listing = {
      item: item[0],
      copy: item[1].tokenIds.indexOf(held.tokenId) + 1,
      seller,
      price: held.price,
      native: held.currency === zeroAddress,
      remaining: held.amount,
    };
    this.listings.set(name, listing);
    return listing;
  }

  /**
   * The buyer pays price × amount in the chain's coin; the seller is paid it (royalties aside: a check that errs
   * towards allowing).
   */
  async pay(path: string, buyer: string, listing: LedgerListing, amount: bigint): Promise<void> {
    const chain = this.#chainOfItem(listing.item);
    const cost = listing.price * amount;
    const coins = await this.#coinsOf(chain, buyer);
    if (coins < cost)
      this.problems.push(
        `${path}.amount: '${buyer}' has ${coins} wei on chain ${chain.chainId}, not the ${cost} it costs`,
      );
    this.#coins.set(`${chain.chainId}@${buyer}`, coins - cost);
    this.#coins.set(`${chain.chainId}@${listing.seller}`, (await this.#coinsOf(chain, listing.seller)) + cost);
  }

  async #coinsOf(chain: SimChain, name: string): Promise<bigint> {
    const key = `${chain.chainId}@${name}`;
    if (!this.#coins.has(key)) {
      const { names, coin } = this.#context.added;
      const address = this.#context.addresses.get(name)!;
      this.#coins.set(key, names.has(name) ? coin : await chain.publicClient.getBalance({ address }));
    }
    return this.#coins.get(key)!;
  }

  async #creatorOf(item: string): Promise<string | undefined> {
    if (this.#creators.has(item)) return this.#creators.get(item);
    const { chain, landed } = this.#worldToken(item, 1)!;
    const creator = await chain.publicClient.readContract({
      address: landed.collection,
      abi: chain.abis.collection,
      functionName: "creator",
      args: [landed.tokenIds[0]!],
    });
    return this.#context.handles.nameOf(creator.toLowerCase() as Address);
  }

  #chainOfItem(item: string): SimChain {
    const name = this.newItem(item)?.collection ?? this.#collectionNameOf(item)!;
    const chainId =
      this.#context.fragment.collections.find((collection) => collection.id === name)?.chainId ??
      this.#context.handles.collections.get(name)!.chainId;
    return this.#context.chains.get(chainId)!;
  }

  #collectionNameOf(item: string): string | undefined {
    const landed = this.#context.handles.items.get(item);
    if (!landed) return undefined;
    return [...this.#context.handles.collections].find(([, found]) => found.address === landed.collection)?.[0];
  }

  #worldToken(item: string, copy: number) {
    const landed = this.#context.handles.items.get(item);
    const chain = landed && this.#context.chains.get(landed.chainId);
    const models = landed && this.#models.get(landed.chainId);
    if (!landed || !chain || !models) return undefined;
    return { chain, models, landed, key: itemKey(landed.collection, landed.tokenIds[copy - 1]!) };
  }

  #worldBalance(item: string, copy: number, holder: string): bigint {
    if (this.newItem(item)) return 0n;
    const token = this.#worldToken(item, copy);
    const address = this.#context.addresses.get(holder);
    if (!token || !address) return 0n;
    return token.models.balances.get(token.key)?.get(address) ?? 0n;
  }
}
