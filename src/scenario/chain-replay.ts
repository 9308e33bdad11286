import { encodeFunctionData, maxUint256, parseEventLogs, parseUnits, toHex, type Address, type Hex } from "viem";
import { MAX_FEE_PER_GAS, MAX_PRIORITY_FEE_PER_GAS } from "../chain/fees.ts";
import { itemKey, itemRef } from "../indexer/models.ts";
import { slugify } from "../metadata/store.ts";
import type { SimChain, Simulator } from "../simulator.ts";
import type { Step } from "./load.ts";
import { storedItem } from "./stored-item.ts";
import type { ScenarioCollection, ScenarioItem } from "./schema.ts";
import { SENDERS, type OpenListing, type SendContext } from "./senders.ts";

/** Where a scenario collection landed on chain. */
export interface LandedCollection {
  chainId: number;
  address: Address;
}

/** Where a scenario item landed: its collection and its token id(s) (one per copy of a non-stackable item). */
export interface LandedItem {
  chainId: number;
  collection: Address;
  tokenIds: bigint[];
}

/** What replay records of every chain, by scenario id. */
export interface Landing {
  collections: Map<string, LandedCollection>;
  items: Map<string, LandedItem>;
}

/** A step the chain refused, named by its place in the scenario. */
export class ReplayError extends Error {
  constructor(step: Step, chainId: number, cause: unknown) {
    const what = step.kind === "collection" ? `creating collection '${step.collection.id}'` : `${step.action.action} at ${step.action.at}`;
    const reason = String((cause as Error)?.message ?? cause).split("\n")[0];
    super(`${step.path} (${what}) failed on chain ${chainId}: ${reason}`);
    this.name = "ReplayError";
  }
}

// Every transaction carries the same gas limit: no estimation round trip, and the
// same bytes (so the same hash) on every run. Enough for a 100-token addItems.
const GAS = toHex(15_000_000);
const FEES = { maxFeePerGas: toHex(MAX_FEE_PER_GAS), maxPriorityFeePerGas: toHex(MAX_PRIORITY_FEE_PER_GAS) };
const FAUCET_AMOUNT = parseUnits("1000000000", 6);

export interface ReplayContext {
  addresses: Map<string, Address>;
  items: Map<string, ScenarioItem>;
  now: number;
  baseUrl: string;
  landing: Landing;
}

/**
 * Replays one chain's steps. Automine stays on: each transaction is its own block,
 * stamped with `evm_setNextBlockTimestamp` just before it is sent (measured on EDR:
 * about 1 ms per transaction, where a pending pool of 100 costs 18 ms per send).
 */
export class ChainReplay implements SendContext {
  readonly sim: Simulator;
  readonly target: SimChain;
  readonly listings = new Map<string, OpenListing>();
  listingCount = 0n;
  #world: ReplayContext;
  #nextTokenId = new Map<Address, bigint>();
  #approved = new Set<string>();
  #funded = new Set<Address>();

  constructor(sim: Simulator, target: SimChain, world: ReplayContext) {
    this.sim = sim;
    this.target = target;
    this.#world = world;
  }

  get #provider() {
    return this.target.chain.connection.provider;
  }

  account(name: string): Address {
    return this.#world.addresses.get(name)!;
  }

  item(id: string): ScenarioItem {
    return this.#world.items.get(id)!;
  }

  async run(step: Step): Promise<void> {
    try {
      if (step.kind === "collection") await this.#createCollection(step.at, step.collection);
      else await SENDERS[step.action.action](this, step.at, step.action as never);
    } catch (error) {
      throw new ReplayError(step, this.target.chainId, error);
    }
  }

  /** Mines the head at "now" (volumes are measured against it), indexes, and checks the chain agrees. */
  async finish(): Promise<void> {
    await this.#provider.request({ method: "evm_mine", params: [this.#world.now] });
    const { indexer, contracts, chainId } = this.target;
    indexer.markStale();
    await indexer.sync();
    for (const [item, landed] of this.#world.landing.items) {
      if (landed.chainId !== chainId) continue;
      const lost = landed.tokenIds.find((tokenId) => !indexer.models.items.has(itemKey(landed.collection, tokenId)));
      if (lost !== undefined) throw new Error(`replay went wrong: item '${item}' should be token ${lost} of ${landed.collection}`);
    }
    const data = encodeFunctionData({ abi: this.sim.abis.marketplace, functionName: "listingCount" });
    const count = BigInt((await this.#provider.request({ method: "eth_call", params: [{ to: contracts.marketplace, data }, "latest"] })) as Hex);
    if (count !== this.listingCount) throw new Error(`replay went wrong: ${count} listings on chain ${chainId}, expected ${this.listingCount}`);
  }

  async send(at: number, from: Address, to: Address, data: Hex, value = 0n): Promise<Hex> {
    await this.#provider.request({ method: "evm_setNextBlockTimestamp", params: [this.#world.now + at] });
    const tx = { from, to, data, gas: GAS, ...FEES, ...(value > 0n ? { value: toHex(value) } : {}) };
    return (await this.#provider.request({ method: "eth_sendTransaction", params: [tx] })) as Hex;
  }

  async #createCollection(at: number, collection: ScenarioCollection): Promise<void> {
    const { chainId, contracts } = this.target;
    const slug = collection.slug ?? slugify(collection.name);
    const owner = this.account(collection.owner);
    const minters = collection.minters.map((name) => this.account(name));
    const uri = `${this.#world.baseUrl}/metadata/${chainId}/${slug}`;
    const data = encodeFunctionData({ abi: this.sim.abis.factory, functionName: "createCollection", args: [collection.name, uri, owner, minters] });
    const hash = await this.send(at, owner, contracts.factory, data);
    const receipt = await this.target.chain.publicClient.getTransactionReceipt({ hash });
    const [created] = parseEventLogs({ abi: this.sim.abis.factory, eventName: "CollectionCreated", logs: receipt.logs });
    const address = created!.args.collection.toLowerCase() as Address;
    this.#world.landing.collections.set(collection.id, { chainId, address });
    this.#nextTokenId.set(address, 1n);
    const { description, genre, image, imageHash, website, isVerified } = collection;
    this.sim.metadata.setCollection(chainId, address, { description, genre, image, imageHash, slug, website, isVerified });
  }

  /** The collection and token id of an item (of its `copy`-th token if it is non-stackable). */
  token(item: string, copy = 1): { collection: Address; tokenId: bigint } {
    const landed = this.#world.landing.items.get(item)!;
    return { collection: landed.collection, tokenId: landed.tokenIds[copy - 1]! };
  }

  collectionOf(item: ScenarioItem): Address {
    return this.#world.landing.collections.get(item.collection)!.address;
  }

  /** Records the token ids an addItem of `item` created (the collection's next ones) and stores its metadata. */
  landItem(item: ScenarioItem): void {
    const { chainId } = this.target;
    const collection = this.collectionOf(item);
    const first = this.#nextTokenId.get(collection)!;
    const count = item.isStackable === false ? item.initialSupply : 1;
    const tokenIds = Array.from({ length: count }, (_, i) => first + BigInt(i));
    this.#nextTokenId.set(collection, first + BigInt(count));
    this.#world.landing.items.set(item.id, { chainId, collection, tokenIds });
    const stored = storedItem(item);
    for (const tokenId of tokenIds) this.sim.metadata.setItem(itemRef(chainId, collection, tokenId), stored);
  }

  async approveMarketplace(at: number, seller: Address, collection: Address): Promise<void> {
    const key = `${seller}:${collection}`;
    if (this.#approved.has(key)) return;
    const data = encodeFunctionData({ abi: this.sim.abis.collection, functionName: "setApprovalForAll", args: [this.target.contracts.marketplace, true] });
    await this.send(at, seller, collection, data);
    this.#approved.add(key);
  }

  /** A stablecoin buyer first takes coins from the open faucet and approves the marketplace. */
  async fundStablecoin(at: number, buyer: Address): Promise<void> {
    if (this.#funded.has(buyer)) return;
    const { stablecoin, marketplace } = this.target.contracts;
    const abi = this.sim.abis.stablecoin;
    await this.send(at, buyer, stablecoin, encodeFunctionData({ abi, functionName: "mint", args: [buyer, FAUCET_AMOUNT] }));
    await this.send(at, buyer, stablecoin, encodeFunctionData({ abi, functionName: "approve", args: [marketplace, maxUint256] }));
    this.#funded.add(buyer);
  }
}
