import { zeroAddress, type Address, type Hex } from "viem";
import type { ApiAccount } from "../core/config.ts";
import { advanceHead, applyLogs } from "../indexer/apply.ts";
import type { IndexedLog } from "../indexer/log-source.ts";
import {
  holding,
  itemKey,
  type CollectionLookup,
  type ModelsRead,
  type ReadSource,
  type ChainModels,
} from "../indexer/models.ts";
import { mintAnswer, type PlannedMint } from "../services/mint-plan.ts";
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

/**
 * A planned mint made in the mock's world: the logs the collection contract emits for it (each token id's
 * ItemCreated, the transfer of its supply from the zero address, ItemDescribed), folded by the indexer's reducers in
 * the block after the chain's head, on the world's clock; answered as the simulator answers it but for the transaction
 * hash, which covers a sender's nonce and signature on a chain the mock does not run: one is made up.
 */
export function mockMint(world: MockWorld) {
  return async (account: ApiAccount, plan: PlannedMint) => {
    const { chainId, collection, recipient, item, metadata } = plan;
    const models = world.chains.find(({ facts }) => facts.chainId === chainId)!;
    let last = 0n;
    while (models.items.has(itemKey(collection, last + 1n))) last++;
    const count = item.isStackable ? 1 : item.initialSupply;
    const tokenIds = Array.from({ length: count }, (_, i) => last + 1n + BigInt(i));
    const { blockNumber, timestamp } = world.nextBlock(models);
    const transactionHash = `0x${blockNumber.toString(16).padStart(8, "0")}${"0".repeat(56)}` as Hex;
    const minting = { operator: account.wallet, from: zeroAddress, to: recipient };
    const emitted: Pick<IndexedLog, "eventName" | "args">[] = [
      ...tokenIds.map((tokenId) => ({
        eventName: "ItemCreated" as const,
        args: {
          tokenId,
          creator: account.wallet,
          maxSupply: BigInt(item.isStackable ? item.maximumSupply : 1),
          initialSupply: BigInt(item.isStackable ? item.initialSupply : 1),
          royaltyPerMille: BigInt(item.royaltyFee),
        },
      })),
      // A stackable item's supply in one TransferSingle (none for a supply of 0); one of each copy in a TransferBatch.
      ...(!item.isStackable
        ? [{ eventName: "TransferBatch" as const, args: { ...minting, ids: tokenIds, values: tokenIds.map(() => 1n) } }]
        : item.initialSupply === 0
          ? []
          : [
              {
                eventName: "TransferSingle" as const,
                args: { ...minting, id: tokenIds[0]!, value: BigInt(item.initialSupply) },
              },
            ]),
      {
        eventName: "ItemDescribed" as const,
        args: { firstTokenId: tokenIds[0]!, count: BigInt(count), stackable: item.isStackable, metadata },
      },
    ];
    const logs = emitted.map(
      (log, logIndex) =>
        ({ ...log, address: collection, blockNumber: BigInt(blockNumber), logIndex, transactionHash }) as IndexedLog,
    );
    applyLogs(models, logs, new Map([[BigInt(blockNumber), timestamp]]));
    advanceHead(models, { number: BigInt(blockNumber), timestamp: BigInt(timestamp) });
    return mintAnswer(plan, transactionHash, tokenIds);
  };
}
