import type { Address } from "viem";
import {
  holding,
  type CollectionLookup,
  type ModelsRead,
  type ReadSource,
  type ChainModels,
} from "../indexer/models.ts";
import { foldWorld, type WorldFile } from "./world-file.ts";

/**
 * The MSW handlers' world: each chain's read models, folded from the world file by the indexer's reducers when first
 * read, and answered from as the simulator answers from its chains'. It holds no chain: a mocked mint folds the logs it
 * would emit into them (`mockMint`), in the block after the chain's head, on the world's clock.
 */
export class MockWorld implements ReadSource {
  readonly #file: WorldFile;
  #chains: ChainModels[] | undefined;
  /** When the handlers were made: each chain's clock runs on from its head's time at the wall's pace from then. */
  readonly #startedAt = Date.now();
  #startTimes = new Map<number, number>();

  constructor(file: WorldFile) {
    this.#file = file;
  }

  /** Each chain's read models, in the order the simulator serves them. */
  get chains(): ChainModels[] {
    if (!this.#chains) {
      this.#chains = foldWorld(this.#file);
      this.#startTimes = new Map(this.#chains.map(({ facts, head }) => [facts.chainId, head.timestamp]));
    }
    return this.#chains;
  }

  ids(): number[] {
    return this.chains.map(({ facts }) => facts.chainId);
  }

  async read(chainId?: number): Promise<ModelsRead[]> {
    return this.chains
      .filter(({ facts }) => chainId === undefined || facts.chainId === chainId)
      .map((models) => ({ models }));
  }

  async findCollection(address: Address, chainId?: number): Promise<CollectionLookup> {
    const lookup = holding(await this.read(chainId), address);
    if (lookup) return lookup;
    if (chainId === undefined) return { unknown: true };
    const elsewhere = holding(await this.read(), address);
    return elsewhere ? { elsewhere: elsewhere.found.models.facts.chainId } : { unknown: true };
  }

  async whole(): Promise<void> {}

  /** The block after the chain's head, stamped by the world's clock (never before the head). */
  nextBlock(models: ChainModels): { blockNumber: number; timestamp: number } {
    const seconds = (ms: number) => Math.floor(ms / 1000);
    const now = this.#startTimes.get(models.facts.chainId)! + seconds(Date.now()) - seconds(this.#startedAt);
    return { blockNumber: models.head.blockNumber + 1, timestamp: Math.max(models.head.timestamp, now) };
  }
}
