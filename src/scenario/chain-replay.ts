import { maxUint256, parseUnits, toHex, type Address, type Hex } from "viem";
import { approveMarketplace, fundStablecoins } from "../chain/actions/set-ups.ts";
import { createCollection, createdCollection } from "../chain/actions/create-collection.ts";
import { placeCollection } from "../chain/actions/place-collection.ts";
import { CURRENCY_DECIMALS } from "../chain/currencies.ts";
import type { SimChain, WriteOptions } from "../chain/sim-chain.ts";
import { mineUntilNext } from "../chain/height.ts";
import { itemKey } from "../indexer/models.ts";
import { lowerAddress, slugify } from "../core/formats.ts";
import { collectionUri } from "../schemas/metadata.ts";
import type { Step } from "./references.ts";
import { replayFailed, sendsFirst } from "./block-runs.ts";
import type { ScenarioMetadata } from "./metadata.ts";
import type { ScenarioAction, ScenarioCollection, ScenarioItem } from "../schemas/scenario.ts";
import { approvedMarketplace, canPayStablecoins, itemCount, listingCount } from "./chain-reads.ts";
import type { WorldHandles } from "../core/handles.ts";
import type { ActionStep, OpenListing, SendContext } from "../timeline/action.ts";
import { actionOf } from "../timeline/actions.ts";

/** The most set-up transactions one entry sends: a stablecoin buyer's coins, then its allowance. */
const MOST_SET_UPS = 2;

type ActionSteps = ActionStep<ScenarioAction>[];

const FAUCET_AMOUNT = parseUnits("1000000000", CURRENCY_DECIMALS.stablecoin);

export interface ReplayContext {
  items: Map<string, ScenarioItem>;
  now: number;
  baseUrl: string;
  /** The world's names: accounts are read from it, collections, items and listings recorded in it as they land. */
  handles: WorldHandles;
  /** Each collection's and item's metadata as it goes on chain. */
  metadata: ScenarioMetadata;
  /**
   * The chain holds nothing of the world yet (its replay at start): token ids count from 1 and nobody has approved
   * anything. Otherwise (a fragment applied to a running world) the chain is asked on first use.
   */
  fresh: boolean;
}

/**
 * Replays one chain's steps through the chain actions. Automine stays on: each
 * transaction is its own block, stamped at its scenario time just before it is sent
 * (measured on EDR: about 1 ms per transaction, where a pending pool of 100 costs
 * 18 ms per send), but for entries that name one block together (`runBlock`).
 */
export class ChainReplay implements SendContext {
  readonly chain: SimChain;
  readonly listings = new Map<string, OpenListing>();
  listingCount = 0n;
  #world: ReplayContext;
  #nextTokenId = new Map<Address, bigint>();
  #approved = new Set<string>();
  #funded = new Set<Address>();
  /** A block the chain's head is at or past: the last entry that named its block went in it or later. */
  #headAtLeast: number | undefined;
  /** The node could not put entries that name one block in it together, and the start's output said so. */
  #saidApart = false;
  /**
   * While entries' set-up transactions go in the free blocks below a shared block: that block, the next free one,
   * whether a set-up found no room there, and how many were asked for (while they are counted, none has room).
   */
  #setUpRoom: { before: number; next: number; full: boolean; asked: number } | undefined;

  /** Throws what the chain threw for the step, naming it (`replayFailed`). */
  #failed = (step: Step) => (error: unknown) => {
    throw replayFailed(step, this.chain.chainId, error);
  };

  constructor(chain: SimChain, world: ReplayContext) {
    this.chain = chain;
    this.#world = world;
  }

  account(name: string): Address {
    return this.#world.handles.accounts.get(name)!.address;
  }

  item(id: string): ScenarioItem {
    return this.#world.items.get(id)!;
  }

  /**
   * Sends the step's transaction(s); answers the hash of the one that is the step itself (not an approval before it).
   * Throws what the chain threw: the caller names the step as it knows it.
   */
  async run(step: Step): Promise<Hex> {
    const at = { at: this.#world.now + step.at };
    if (step.kind === "collection") return this.#createCollection(step.collection, at);
    const { block } = step.action;
    const next = block === undefined ? undefined : await this.#mineUpTo(block);
    const hash = await actionOf(step.action).send(this, step.action, at);
    // The entry sent at least one transaction, into `next` or after it.
    if (next !== undefined) this.#headAtLeast = next;
    return hash;
  }

  /**
   * Sends entries that name one block (a run of `sameBlockRuns`, or one entry that sends something first: `sendsFirst`)
   * into it together, as the live chain had them: what they
   * send before their own transactions (approvals, a buyer's coins) first in the free blocks below it, as far as they
   * go there (`#setUpBelow`); then, with automine off, each transaction's gas limit estimated against the block so far
   * (one that would revert throws before it is sent), then one `evm_mine` at their time. A chain already past the block
   * puts them in its next one, together. Where the blocks between this one and the `next` run's are too few for what
   * that run sends first, it goes last in this block (`#setsUpAhead`), where it renumbers no log of either block.
   * Every transaction's receipt is checked, since a pooled one that reverts throws nothing: one the block left out or
   * that reverted in it fails its entry. Answers each entry's own hash; throws `replayFailed`, naming the entry. A node
   * is given back its mining as it was; on one that cannot hold it (`holdsMining`), or that mines on a timer, each
   * entry goes in a block of its own.
   */
  async runBlock(run: Step[], next?: Step[]): Promise<Hex[]> {
    const failed = this.#failed;
    const one = async (step: Step) => [await this.run(step).catch(failed(step))];
    const ahead = (await this.#setsUpAhead(run, next)) ? (next as ActionSteps) : undefined;
    if (run.length === 1 && !sendsFirst(run[0]!) && !ahead) return one(run[0]!);
    const steps = run as ActionSteps;
    const at = this.#world.now + steps[0]!.at;
    const hashes: Hex[] = [];
    if (run.length === 1) {
      // Alone in its block, with all it sends first below it (or on a node that cannot hold its mining): its own
      // transaction goes in the block as any other entry's.
      const allBelow = await this.#setUpBelow(steps, steps[0]!.action.block!, at);
      if (!ahead && (allBelow || !(await this.#holdsMining()))) return one(steps[0]!);
    } else if (!(await this.#holdsMining())) {
      for (const step of run) hashes.push(...(await one(step)));
      return hashes;
    } else await this.#setUpBelow(steps, steps[0]!.action.block!, at);
    const block = await this.#mineUpTo(steps[0]!.action.block!).catch(failed(steps[0]!));
    await this.chain.request("evm_setAutomine", [false]);
    try {
      for (const step of steps)
        hashes.push(await actionOf(step.action).send(this, step.action, { at, sharedBlock: true }).catch(failed(step)));
      // The next block's set-ups last in this one, after its own transactions, where too few blocks are free between
      // them: neither block's logs are renumbered.
      const free = ahead ? ahead[0]!.action.block! - block - 1 : 0;
      if (ahead && (await this.#setUpCount(ahead)) > free)
        for (const step of ahead)
          await actionOf(step.action).setUp?.(this, step.action, { at, sharedBlock: true }).catch(failed(step));
      await this.chain.request("evm_mine", [at]);
    } finally {
      await this.chain.request("evm_setAutomine", [true]);
    }
    this.#headAtLeast = block;
    await this.#checkMined(steps, hashes, block, ahead?.[0]);
    return hashes;
  }

  /**
   * Whether the next run's set-ups (a listing's approval, a buyer's coins) may go last in this run's block: the next run
   * names a later block, with fewer free blocks between them than its set-ups may take (those of an entry that needs
   * this run's, as a buy of a listing it opens, are known only once it is sent), and this chain can hold its mining.
   * There they renumber no log of either block; in the next block they would go before its own transactions.
   */
  async #setsUpAhead(run: Step[], next: Step[] | undefined): Promise<boolean> {
    const [last, first] = [run.at(-1)!, next?.[0]];
    if (last.kind !== "action" || first?.kind !== "action") return false;
    const [block, nextBlock] = [last.action.block, first.action.block];
    if (block === undefined || nextBlock === undefined || nextBlock <= block) return false;
    const steps = next as ActionSteps;
    if (!steps.some((step) => actionOf(step.action).setUp !== undefined)) return false;
    const free = nextBlock - block - 1;
    // What the next run sets up is known now unless it needs what this run makes (a token it mints, a listing it
    // opens): then it is counted once this run is sent, and the blocks between may be too few for the most it can be.
    const unknown = steps.some((step) => step.action.action === "buy" && !this.listings.has(step.action.listing));
    const count = unknown ? undefined : await this.#setUpCount(steps).catch(() => undefined);
    const few = count === undefined ? free < MOST_SET_UPS : count > free;
    return few && this.#holdsMining();
  }

  /** How many set-up transactions the steps would send now (none is sent). */
  async #setUpCount(steps: ActionSteps): Promise<number> {
    const at = { at: this.#world.now + steps[0]!.at };
    const room = (this.#setUpRoom = { before: 0, next: 0, full: false, asked: 0 });
    try {
      for (const step of steps) await actionOf(step.action).setUp?.(this, step.action, at);
      return room.asked;
    } finally {
      this.#setUpRoom = undefined;
    }
  }

  /**
   * Whether mining can be held for a block of several transactions: always in process; on a node that can, when it
   * mines each transaction as it comes (one with a block time would mine on its timer meanwhile).
   */
  async #holdsMining(): Promise<boolean> {
    const node = this.chain.node;
    if (!node) return true;
    const holds = node.capabilities.holdsMining && (await node.rpc.request("hardhat_getAutomine")) === true;
    if (!holds && !this.#saidApart) {
      this.#saidApart = true;
      console.warn(
        `chain ${this.chain.chainId}: the node at ${node.rpc.shown} (${node.capabilities.client}) ` +
          `${node.capabilities.holdsMining ? "mines on a timer" : "cannot hold its mining (evm_setAutomine)"}: ` +
          `entries that name one block go in blocks of their own, so their block numbers and ids differ from the world's`,
      );
    }
    return holds;
  }

  /**
   * The entries' set-up transactions (their actions' `setUp`), each a block of its own, in the blocks from the chain's
   * next one up to `block` (exclusive), those of each entry only where all of them fit there: then `block` holds only
   * the entries' own transactions, and numbers its logs as the live block did. What does not fit is sent in `block` by
   * the entry itself, as before. Answers whether everything fitted.
   */
  async #setUpBelow(steps: ActionSteps, block: number, at: number): Promise<boolean> {
    const next = Number(BigInt((await this.chain.request("eth_blockNumber")) as Hex)) + 1;
    // Asked even where no block is free: an entry with nothing to send first has everything below.
    const room = (this.#setUpRoom = { before: block, next, full: false, asked: 0 });
    try {
      for (const step of steps)
        await actionOf(step.action).setUp?.(this, step.action, { at }).catch(this.#failed(step));
    } finally {
      this.#setUpRoom = undefined;
    }
    if (room.next > next) this.#headAtLeast = room.next - 1;
    return !room.full;
  }

  /**
   * Whether `count` more set-up transactions fit below the shared block (each takes one); outside a set-up, always;
   * while they are counted (`#setUpCount`), never.
   */
  #fits(count: number): boolean {
    const room = this.#setUpRoom;
    if (!room) return true;
    room.asked += count;
    if (room.next + count > room.before) {
      room.full = true;
      return false;
    }
    room.next += count;
    return true;
  }

  /**
   * Each entry's transactions, in the order sent, are the block's up to its own (its approvals before it): each must be
   * in `block` and have succeeded.
   */
  async #checkMined(steps: ActionSteps, hashes: Hex[], block: number, setUpAhead?: Step): Promise<void> {
    const { transactions } = (await this.chain.request("eth_getBlockByNumber", [toHex(block), false])) as {
      transactions: Hex[];
    };
    const succeeded = async (step: Step, sent: Hex[]) => {
      for (const hash of sent) {
        const receipt = (await this.chain.request("eth_getTransactionReceipt", [hash])) as { status: Hex };
        if (receipt.status !== "0x1")
          throw replayFailed(step, this.chain.chainId, `its transaction ${hash} reverted in block ${block}`);
      }
    };
    let first = 0;
    for (const [i, step] of steps.entries()) {
      const last = transactions.indexOf(hashes[i]!);
      if (last < first)
        throw replayFailed(step, this.chain.chainId, `its transaction ${hashes[i]} is not in block ${block}`);
      await succeeded(step, transactions.slice(first, last + 1));
      first = last + 1;
    }
    // The next block's set-ups, after them.
    if (setUpAhead) await succeeded(setUpAhead, transactions.slice(first));
  }

  /**
   * Empty blocks up to `block`, so the next transaction goes in it; a chain there or past it is left as it is. Answers
   * the block the next transaction goes in. The head is asked for only where blocks may be missing: a timeline that
   * names consecutive blocks (a block a transaction) asks the chain nothing.
   */
  async #mineUpTo(block: number): Promise<number> {
    const known = this.#headAtLeast;
    if (known !== undefined && block <= known + 1) return known + 1;
    const provider = {
      request: ({ method, params }: { method: string; params?: unknown[] }) => this.chain.request(method, params),
    };
    // A node's replay cannot skip the gaps of a world at live heights: refused with the entry that names the block.
    const node = this.chain.node;
    const passed = await mineUntilNext(provider, block, {
      node: node !== undefined,
      pinsTime: node?.capabilities.pinsBlockTime,
    });
    return passed ? passed.passedAt + 1 : block;
  }

  /** Mines the head at "now" (volumes are measured against it), indexes, and checks the chain agrees. */
  async finish(): Promise<void> {
    const { chainId } = this.chain;
    await this.chain.request("evm_mine", [this.#world.now]);
    const models = await this.chain.read();
    for (const [item, landed] of this.#world.handles.items) {
      if (landed.chainId !== chainId) continue;
      const lost = landed.tokenIds.find((tokenId) => !models.items.has(itemKey(landed.collection, tokenId)));
      if (lost !== undefined)
        throw new Error(`replay went wrong: item '${item}' should be token ${lost} of ${landed.collection}`);
    }
    const count = await listingCount(this.chain);
    if (count !== this.listingCount)
      throw new Error(`replay went wrong: ${count} listings on chain ${chainId}, expected ${this.listingCount}`);
  }

  async #createCollection(collection: ScenarioCollection, at: WriteOptions): Promise<Hex> {
    const { chainId } = this.chain;
    const slug = collection.slug ?? slugify(collection.name);
    const owner = this.account(collection.owner);
    const minters = collection.minters.map((name) => this.account(name));
    const uri = collectionUri(this.#world.baseUrl, chainId, slug);
    const metadata = this.#world.metadata.collections.get(collection.id)!;
    const params = { from: owner, name: collection.name, uri, owner, minters, metadata };
    const hash = collection.address
      ? await placeCollection(this.chain, { ...params, address: lowerAddress(collection.address) }, at)
      : await createCollection(this.chain, params, at);
    const address = createdCollection(this.chain, await this.chain.publicClient.getTransactionReceipt({ hash }));
    this.#world.handles.collections.set(collection.id, { chainId, address, slug });
    this.#nextTokenId.set(address, 1n);
    return hash;
  }

  token(item: string, copy = 1): { collection: Address; tokenId: bigint } {
    const landed = this.#world.handles.items.get(item)!;
    return { collection: landed.collection, tokenId: landed.tokenIds[copy - 1]! };
  }

  collectionOf(item: ScenarioItem): Address {
    return this.#world.handles.collections.get(item.collection)!.address;
  }

  itemCollection(item: string): Address {
    return this.#world.handles.items.get(item)?.collection ?? this.collectionOf(this.item(item));
  }

  itemMetadata(item: ScenarioItem): Hex {
    return this.#world.metadata.items.get(item.id)!;
  }

  async landItem(item: ScenarioItem): Promise<void> {
    const collection = this.collectionOf(item);
    const first = this.#nextTokenId.get(collection) ?? (await itemCount(this.chain, collection)) + 1n;
    const count = item.isStackable === false ? item.initialSupply : 1;
    const tokenIds = Array.from({ length: count }, (_, i) => first + BigInt(i));
    this.#nextTokenId.set(collection, first + BigInt(count));
    this.#world.handles.items.set(item.id, { chainId: this.chain.chainId, collection, tokenIds });
  }

  landListing(handle: string, listing: OpenListing): void {
    this.listings.set(handle, listing);
    this.#world.handles.listings.set(handle, { chainId: this.chain.chainId, listingId: listing.id });
  }

  async approveMarketplace(seller: Address, collection: Address, at: WriteOptions): Promise<void> {
    const key = `${seller}:${collection}`;
    if (this.#approved.has(key)) return;
    if (this.#world.fresh || !(await approvedMarketplace(this.chain, seller, collection))) {
      if (!this.#fits(1)) return;
      await approveMarketplace(this.chain, { owner: seller, collection }, at);
    }
    this.#approved.add(key);
  }

  /** A stablecoin buyer first takes coins from the open faucet and approves the marketplace. */
  async fundStablecoin(buyer: Address, needed: bigint, at: WriteOptions): Promise<void> {
    // A running world's buyer may have spent what it was given: asked for each buy.
    if (this.#world.fresh ? this.#funded.has(buyer) : await canPayStablecoins(this.chain, buyer, needed)) return;
    // Two transactions: the coins, then the allowance.
    if (!this.#fits(MOST_SET_UPS)) return;
    await fundStablecoins(this.chain, { buyer, amount: FAUCET_AMOUNT, allowance: maxUint256 }, at);
    this.#funded.add(buyer);
  }
}
