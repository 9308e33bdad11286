import type { Address } from "viem";
import { ChainReplaced } from "../indexer/indexer.ts";
import { rootCause } from "./node/rpc.ts";
import type { SimChain } from "./sim-chain.ts";

export { ChainReplaced } from "../indexer/indexer.ts";

/** A node given by --rpc-url does not answer: what needs its chain waits until it does (the API answers 503). */
export class ChainDown extends Error {
  readonly chainId: number;
  constructor(chainId: number, cause: unknown) {
    super(`chain ${chainId}: ${String((rootCause(cause) as Error)?.message ?? cause).split("\n")[0]}`);
    this.name = "ChainDown";
    this.chainId = chainId;
  }
}

/** Where a collection address was found: on the chain asked about, only on another one, or nowhere. */
export type CollectionLookup = { found: SimChain } | { elsewhere: number } | { unknown: true };

/** The chains this simulator serves, by chain id; each read brings them up to date first. */
export class ChainRegistry {
  readonly #chains = new Map<number, SimChain>();

  constructor(chains: SimChain[] = []) {
    this.register(chains);
  }

  /** Serves these chains too (the simulator registers its chains once they, or their cached index, are there). */
  register(chains: SimChain[]): void {
    for (const chain of chains) this.#chains.set(chain.chainId, chain);
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

  /** Every chain (or only `chainId`'s), indexed up to its head; a node given by --rpc-url that does not answer throws ChainDown. */
  async synced(chainId?: number): Promise<SimChain[]> {
    const chains = this.all().filter((chain) => chainId === undefined || chain.chainId === chainId);
    await Promise.all(
      chains.map((chain) =>
        chain.sync().catch((error: unknown) => {
          // A node we did not start may be gone; an in-process chain failing is a bug, and stays one.
          if (!chain.external || error instanceof ChainReplaced) throw error;
          throw new ChainDown(chain.chainId, error);
        }),
      ),
    );
    return chains;
  }

  /**
   * The chain a collection lives on (among `chainId`'s, when given), after bringing the index up to date. A
   * collection not found on a node others write to (--rpc-url) is looked for again at the node's head: another
   * instance may have just created it, before the next poll.
   */
  async findCollection(address: Address, chainId?: number): Promise<CollectionLookup> {
    const holding = (chains: SimChain[]) => chains.find((chain) => chain.models.collections.has(address));
    let found = holding(await this.synced(chainId));
    if (!found) found = holding(await this.#caughtUp(chainId));
    if (found) return { found };
    if (chainId === undefined) return { unknown: true };
    const elsewhere = holding(await this.synced());
    return elsewhere ? { elsewhere: elsewhere.chainId } : { unknown: true };
  }

  /** The nodes others write to (among `chainId`'s), indexed up to their latest block now. */
  async #caughtUp(chainId?: number): Promise<SimChain[]> {
    const shared = this.all().filter((chain) => chain.external && (chainId === undefined || chain.chainId === chainId));
    for (const chain of shared) chain.indexer.markStale();
    return shared.length === 0 ? [] : this.synced(chainId);
  }

  close(): Promise<unknown> {
    return Promise.all(this.all().map((chain) => chain.close()));
  }
}
