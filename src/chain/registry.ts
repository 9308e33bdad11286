import type { Address } from "viem";
import { apiError, ERRORS, isApiError, oneLine } from "../core/errors.ts";
import { rootCause } from "../indexer/log-source.ts";
import { type ReadModels, holding, type CollectionLookup as Lookup, type ReadSource } from "../indexer/models.ts";
import type { SimChain } from "./sim-chain.ts";

/** One chain and its read models, as of a sync just made. */
export interface ChainRead {
  chain: SimChain;
  models: ReadModels;
}

/** Where a collection address was found (among the chains read, the first holding it), only elsewhere, or nowhere. */
export type CollectionLookup = Lookup<ChainRead>;

/** The chains this simulator serves, by chain id; each read brings them up to date first. */
export class ChainRegistry implements ReadSource {
  readonly #chains = new Map<number, SimChain>();
  #whole: Promise<void> = Promise.resolve();

  constructor(chains: SimChain[] = []) {
    this.register(chains);
  }

  /** Serves these chains too (the simulator registers its chains once they, or their index loaded from an image, are there). */
  register(chains: SimChain[]): void {
    for (const chain of chains) this.#chains.set(chain.chainId, chain);
  }

  /**
   * The indexes are answered from before their per-item parts are read (an image read part by part): what needs
   * those waits for `whole`.
   */
  wholeOnce(read: Promise<void>): void {
    this.#whole = read;
  }

  /**
   * Resolves once every index holds its items, balances and histories (at once, unless a checkpoint is still being
   * read).
   */
  whole(): Promise<void> {
    return this.#whole;
  }

  get(chainId: number): SimChain | undefined {
    return this.#chains.get(chainId);
  }

  all(): SimChain[] {
    return [...this.#chains.values()];
  }

  ids(): number[] {
    return [...this.#chains.keys()];
  }

  /**
   * Every chain (or only `chainId`'s) with its read models, once its index has caught up with it: the one way
   * to read them. A node given by --rpc-url that does not answer throws CHAIN_DOWN.
   */
  async read(chainId?: number): Promise<ChainRead[]> {
    const chains = this.all().filter((chain) => chainId === undefined || chain.chainId === chainId);
    return Promise.all(
      chains.map(async (chain) => ({
        chain,
        models: await chain.read().catch((error: unknown) => {
          // A node we did not start may be gone (what needs its chain waits until it answers: 503); an in-process
          // chain failing is a bug, and stays one.
          if (!chain.external || isApiError(error, ERRORS.CHAIN_REPLACED)) throw error;
          const errors = [`chain ${chain.chainId}: ${oneLine(rootCause(error))}`];
          throw apiError(ERRORS.CHAIN_DOWN, { chainId: chain.chainId }, { errors });
        }),
      })),
    );
  }

  /** Every chain's index caught up with it (before an action that must see the chains as they are). */
  async sync(chainId?: number): Promise<void> {
    await this.read(chainId);
  }

  /**
   * The chain a collection lives on (among `chainId`'s, when given), with its read models. A collection not
   * found on a node others write to (--rpc-url) is looked for again at the node's head: another instance may
   * have just created it, before the next poll.
   */
  async findCollection(address: Address, chainId?: number): Promise<CollectionLookup> {
    const lookup = holding(await this.read(chainId), address) ?? holding(await this.#caughtUp(chainId), address);
    if (lookup) return lookup;
    if (chainId === undefined) return { unknown: true };
    const elsewhere = holding(await this.read(), address);
    return elsewhere ? { elsewhere: elsewhere.found.chain.chainId } : { unknown: true };
  }

  /** The nodes others write to (among `chainId`'s), indexed up to their latest block now. */
  async #caughtUp(chainId?: number): Promise<ChainRead[]> {
    const shared = this.all().filter((chain) => chain.external && (chainId === undefined || chain.chainId === chainId));
    for (const chain of shared) chain.indexer.markStale();
    return shared.length === 0 ? [] : this.read(chainId);
  }

  close(): Promise<unknown> {
    return Promise.all(this.all().map((chain) => chain.close()));
  }
}
