import type { Hex } from "viem";
import type { RequestProvider, SendableTx, Sent } from "./block-batcher.ts";
import type { Savepoint } from "./savepoint.ts";

/** A chain as its recorder sees it. */
export interface RecordedChain {
  chainId: number;
  /** The chain's own provider, to ask what a change did (its block, its logs): nothing it is asked is recorded. */
  provider: RequestProvider;
  /** Where a change is taken back to if its record cannot be made durable (none: a node we did not start keeps it). */
  savepoint: (() => Promise<Savepoint>) | undefined;
}

/**
 * What records a chain's changes once the world is loaded (the journal of `--state`). The chain tells it each change
 * as it makes it, one at a time in the chain's order, and answers a writer only once its change is durable; what the
 * record holds is the recorder's business.
 */
export interface ChainRecorder {
  /**
   * A block of the simulator's writes, made by `make` (which answers what reached the chain). Answers once recorded
   * (refused, STORAGE_FULL 507, before anything is sent if it cannot be); `durable` resolves once it is on disk, or rejects
   * once it was taken back.
   */
  block(chain: RecordedChain, make: () => Promise<Sent[]>): Promise<{ durable: Promise<void> }>;
  /** A state-changing JSON-RPC call from outside, made by `call`: answered once durable. */
  call<T>(chain: RecordedChain, method: string, params: unknown[], call: () => Promise<T>): Promise<T>;
  /** A transaction sent alone to a node we did not start (`send`, as `sendable`): answered once durable. */
  sent(chain: RecordedChain, sendable: SendableTx, send: () => Promise<Hex>): Promise<Hex>;
}
