import type { Address, Hex } from "viem";

/** A transaction the simulator sent, exactly as sent (so sending it again gives the same hash). */
export interface TxEntry {
  t: "tx";
  chainId: number;
  from: Address;
  to: Address;
  data: Hex;
  value?: Hex;
  gas: Hex;
  /** Time of the block it was mined in (absent while it waits in the pool). */
  at?: number;
  /**
   * While it waits in the pool: the signed transaction, replayed as sent (same hash) and left there for the block that
   * mined it.
   */
  raw?: Hex;
}

/** A state-changing JSON-RPC call from outside, as made. */
export interface RpcEntry {
  t: "rpc";
  chainId: number;
  method: string;
  params: unknown[];
  /** Time of the first block it mined, if it mined one. */
  at?: number;
}

export type ChainEntry = TxEntry | RpcEntry;

/**
 * Where a chain's changes go once the world is loaded (the journal of `--state`). Writes run
 * one at a time inside `exclusive`, so the record's order is the chain's order; whoever answers
 * a caller flushes first.
 */
export interface ChainRecorder {
  exclusive<T>(work: () => Promise<T>): Promise<T>;
  /** Written when it returns; durable once a `flush()` after it resolves. */
  append(entry: ChainEntry): void;
  /** Everything appended so far is on disk (one sync serves every caller waiting). */
  flush(): Promise<void>;
}
