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

  /** Make sure everything up to `blockNumber` is indexed. */
  async syncTo(blockNumber: bigint): Promise<void> {
    if (this.models.head.blockNumber >= Number(blockNumber)) return this.#running;
    return this.#serialized(() => this.#catchUp());
  }

  #serialized(step: () => Promise<void>): Promise<void> {
    const run = this.#running.then(step);
    this.#running = run.catch(() => {
      this.#stale = true;
    });
    return run;
  }

  async #catchUp(): Promise<void> {
    const head = await this.#client.getBlock({ blockTag: "latest" });
    const from = BigInt(this.models.head.blockNumber + 1);
    if (head.number < from) return;
    const logs = decodeLogs(this.#abi, await this.#client.getLogs({ fromBlock: from, toBlock: head.number }));
    const blockTimes = await this.#blockTimes(logs);
    applyLogs(this.models, logs, blockTimes);
    advanceHead(this.models, head);
  }

  /** The time of every block with logs: EDR puts it on each log; a node that leaves it out is asked per block. */
  async #blockTimes(logs: DecodedLog[]): Promise<Map<bigint, number>> {
    const times = new Map<bigint, number>();
    const missing = new Set<bigint>();
    for (const log of logs) {
      if (log.blockTimestamp != null) times.set(log.blockNumber, Number(log.blockTimestamp));
      else if (!times.has(log.blockNumber)) missing.add(log.blockNumber);
    }
    const blocks = await Promise.all([...missing].map((blockNumber) => this.#client.getBlock({ blockNumber })));
    for (const block of blocks) times.set(block.number, Number(block.timestamp));
    return times;
  }
}
