import type { PublicClient } from "../chain/network.ts";
import { decodeLogs, type DecodedLog, type indexedEventsAbi } from "./decode.ts";
import { advanceHead, applyLogs } from "./apply.ts";
import { emptyModels, type ChainFacts, type ChainModels } from "./models.ts";

/**
 * Follows one chain: pulls the logs of every block it has not seen yet and folds
 * them into the read models. Writers call `syncTo` with their receipt's block so
 * a write answers only once it is indexed; readers call `sync` when the chain may
 * have moved (a JSON-RPC call from outside, time travel).
 */
export class ChainIndexer {
  readonly models: ChainModels;
  #client: PublicClient;
  #abi: ReturnType<typeof indexedEventsAbi>;
  #running: Promise<void> = Promise.resolve();
  #stale = true;

  constructor(client: PublicClient, abi: ReturnType<typeof indexedEventsAbi>, facts: ChainFacts) {
    this.#client = client;
    this.#abi = abi;
    this.models = emptyModels(facts);
  }

  /** Something outside the simulator may have changed the chain. */
  markStale(): void {
    this.#stale = true;
  }

  /** Catch up with the chain if it may have moved. */
  async sync(): Promise<void> {
    if (!this.#stale) return this.#running;
    this.#stale = false;
    return this.#serialized(() => this.#catchUp());
  }

  /** Make sure everything up to `blockNumber` is indexed (a writer's receipt block: its logs carry its time). */
  async syncTo(blockNumber: bigint): Promise<void> {
    if (this.models.head.blockNumber >= Number(blockNumber)) return this.#running;
    return this.#serialized(() => this.#catchUp(blockNumber));
  }

  #serialized(step: () => Promise<void>): Promise<void> {
    const run = this.#running.then(step);
    this.#running = run.catch(() => {
      this.#stale = true;
    });
    return run;
  }

  /** Index every block after the head up to `to`, or up to the chain's latest block. */
  async #catchUp(to?: bigint): Promise<void> {
    const latest = to === undefined ? await this.#client.getBlock({ blockTag: "latest" }) : undefined;
    const toBlock = latest?.number ?? to!;
    const fromBlock = BigInt(this.models.head.blockNumber + 1);
    if (toBlock < fromBlock) return;
    const logs = decodeLogs(this.#abi, await this.#client.getLogs({ fromBlock, toBlock }));
    const blockTimes = new Map<bigint, number>(latest ? [[toBlock, Number(latest.timestamp)]] : []);
    await this.#addBlockTimes(blockTimes, logs, toBlock);
    applyLogs(this.models, logs, blockTimes);
    advanceHead(this.models, { number: toBlock, timestamp: BigInt(blockTimes.get(toBlock)!) });
  }

  /** The time of every block with logs, and of the new head: EDR puts it on each log; other blocks are asked for. */
  async #addBlockTimes(times: Map<bigint, number>, logs: DecodedLog[], head: bigint): Promise<void> {
    for (const log of logs) if (log.blockTimestamp != null) times.set(log.blockNumber, Number(log.blockTimestamp));
    const missing = new Set([...logs.map((log) => log.blockNumber), head].filter((number) => !times.has(number)));
    const blocks = await Promise.all([...missing].map((blockNumber) => this.#client.getBlock({ blockNumber })));
    for (const block of blocks) times.set(block.number, Number(block.timestamp));
  }
}
