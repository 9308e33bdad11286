import { parseUnits, type Address } from "viem";
import { CURRENCY_DECIMALS } from "../chain/currencies.ts";
import type { ChainRegistry } from "../chain/registry.ts";
import type { SimChain } from "../chain/sim-chain.ts";
import { hasMinterRole } from "../chain/actions/minter-role.ts";
import { NEW_WALLET_BALANCE } from "../chain/actions/node-state.ts";
import { itemKey, type ReadModels } from "../indexer/models.ts";
import type { CheckedFragment } from "../schemas/fragment.ts";
import type { WorldHandles } from "../core/handles.ts";
import { creatorOf } from "../scenario/chain-reads.ts";
import { checkStep, type CheckedTimeline } from "../scenario/references.ts";
import type { ScenarioItem } from "../schemas/scenario.ts";
import type { KnownListing, RuleLedger, TimelineState } from "../timeline/action.ts";
import { actionOf } from "../timeline/actions.ts";

/** What the rule checks read: the world's chains and handles, the fragment, and the addresses of its accounts. */
export interface RuleContext {
  chains: ChainRegistry;
  handles: WorldHandles;
  fragment: CheckedFragment;
  /** Every account the fragment may name (the world's and its own), by name. */
  addresses: ReadonlyMap<string, Address>;
  /** Each chain's read models, synced. */
  models: ReadonlyMap<number, ReadModels>;
}

/**
 * The contract rules a fragment can be checked against before anything is sent: each entry's action checks its own
 * (`timeline/`), walking the steps in order again with the reference checks (which keep the listings), from what the
 * read models hold. Each broken rule is a line naming the entry; what these cannot foresee is caught when the
 * transaction reverts, and the fragment is rolled back.
 */
export async function brokenRules(timeline: CheckedTimeline, context: RuleContext): Promise<string[]> {
  // The references are known good: this walk only keeps what the timeline leaves.
  const state = timeline.start([]);
  const ledger = new Ledger(context, state);
  for (const step of timeline.steps) {
    if (step.kind === "action") await actionOf(step.action).rule?.(ledger, step.action, step.path);
    checkStep(state, step);
  }
  return ledger.problems;
}

/** Balances, supplies and coin as the steps so far leave them, read from the world where the fragment has not said. */
class Ledger implements RuleLedger {
  readonly problems: string[] = [];
  readonly #supply = new Map<string, bigint>();
  readonly #balances = new Map<string, bigint>();
  readonly #coins = new Map<string, bigint>();
  readonly #roles = new Map<string, boolean>();
  readonly #context: RuleContext;
  readonly #state: TimelineState;
  readonly #newItems: Map<string, ScenarioItem>;
  readonly #creators = new Map<string, string>();

  constructor(context: RuleContext, state: TimelineState) {
    this.#context = context;
    this.#state = state;
    this.#newItems = new Map(context.fragment.items.map((item) => [item.id, item]));
  }

  newItem(id: string): ScenarioItem | undefined {
    return this.#newItems.get(id);
  }

  credit(item: string, copy: number, holder: string, amount: bigint): void {
    const key = `${item}#${copy}@${holder}`;
    this.#balances.set(key, (this.#balances.get(key) ?? this.#worldBalance(item, copy, holder)) + amount);
  }

  debit(path: string, item: string, copy: number, holder: string, amount: bigint): void {
    const held = this.#balances.get(`${item}#${copy}@${holder}`) ?? this.#worldBalance(item, copy, holder);
    const which = copy > 1 ? ` (copy ${copy})` : "";
    if (held < amount)
      this.problems.push(`${path}.amount: '${holder}' holds ${held} of item '${item}'${which}, not ${amount}`);
    this.credit(item, copy, holder, -amount);
  }

  supplyOf(item: string): [bigint, bigint] {
    const created = this.newItem(item);
    if (created) return [this.#supply.get(item) ?? 0n, BigInt(created.maximumSupply ?? created.initialSupply)];
    const { models, key } = this.#worldToken(item, 1)!;
    const held = [...(models.balances.get(key)?.values() ?? [])].reduce((sum, amount) => sum + amount, 0n);
    return [this.#supply.get(item) ?? held, models.items.get(key)!.maxSupply];
  }

  setSupply(item: string, supply: bigint): void {
    this.#supply.set(item, supply);
  }

  async needMinter(path: string, by: string, item: string, creatorMay = false): Promise<void> {
    const collectionName = this.#state.items.get(item)!.collection;
    const fromFragment = this.#context.fragment.collections.find((collection) => collection.id === collectionName);
    let allowed: boolean;
    if (fromFragment) allowed = fromFragment.owner === by || fromFragment.minters.includes(by);
    else {
      const landed = this.#context.handles.collections.get(collectionName)!;
      const key = `${landed.address}@${by}`;
      if (!this.#roles.has(key)) {
        const chain = this.#context.chains.get(landed.chainId)!;
        const wallet = this.#context.addresses.get(by)!;
        this.#roles.set(key, await hasMinterRole(chain, { collection: landed.address, wallet }));
      }
      allowed = this.#roles.get(key)!;
    }
    if (!allowed && creatorMay) allowed = (await this.#creatorOf(item)) === by;
    if (this.newItem(item) && !this.#creators.has(item)) this.#creators.set(item, by);
    if (!allowed)
      this.problems.push(
        `${path}.by: '${by}' does not hold the minter role on collection '${collectionName}'${creatorMay ? ` and did not create item '${item}'` : ""}`,
      );
  }

  listing(name: string): KnownListing | undefined {
    const listing = this.#state.listings.get(name);
    return listing?.item && listing.seller ? (listing as KnownListing) : undefined;
  }

  /** Royalties aside: a check that errs towards allowing. */
  async pay(path: string, buyer: string, listing: KnownListing, amount: bigint): Promise<void> {
    const chain = this.#context.chains.get(listing.chainId)!;
    const cost = parseUnits(listing.price, CURRENCY_DECIMALS[listing.currency]) * amount;
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
      // An account the fragment adds is given its coin on every chain before anything is sent.
      const added = this.#context.fragment.accounts.some((account) => account.name === name);
      const address = this.#context.addresses.get(name)!;
      this.#coins.set(key, added ? NEW_WALLET_BALANCE : await chain.publicClient.getBalance({ address }));
    }
    return this.#coins.get(key)!;
  }

  async #creatorOf(item: string): Promise<string | undefined> {
    if (this.#creators.has(item)) return this.#creators.get(item);
    const { chain, landed } = this.#worldToken(item, 1)!;
    return this.#context.handles.nameOf(await creatorOf(chain, landed.collection, landed.tokenIds[0]!));
  }

  #worldToken(item: string, copy: number) {
    const landed = this.#context.handles.items.get(item);
    const chain = landed && this.#context.chains.get(landed.chainId);
    const models = landed && this.#context.models.get(landed.chainId);
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
