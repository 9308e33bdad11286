import type { Address, Hex } from "viem";

/**
 * A log of a followed event as the index needs it: [block, block time, address, topics, data, log index, transaction].
 */
export type LogRecord = [number, number, Address, Hex[], Hex, number, Hex];

/**
 * What a recorded change did to the chain's index: its head after it ([number, hash, time]) and the followed logs of
 * the blocks it made.
 */
export interface Mined {
  head: [number, Hex, number];
  logs: LogRecord[];
}

/** A transaction as the simulator sent it (so sending it again gives the same hash). */
export interface SentFields {
  from: Address;
  to: Address;
  data: Hex;
  value?: Hex;
  gas: Hex;
}

/** One block of the simulator's writes, as mined: its time, its transactions in the block's order, what it did. */
export interface BlockEntry {
  t: "block";
  chainId: number;
  at: number;
  txs: SentFields[];
  mined: Mined;
}

/**
 * A transaction the simulator sent that waits in the pool (automine off from outside), or one mined alone at `at` (the
 * journal's first format).
 */
export interface TxEntry extends SentFields {
  t: "tx";
  chainId: number;
  /** Time of the block it was mined in (the first format only). */
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
  /** What it did to the index (absent on a call recorded before it ran, evm_revert, and in the first format). */
  mined?: Mined;
}

export type ChainEntry = BlockEntry | TxEntry | RpcEntry;

/** An API key made through the control API (its wallet key derives from its name). */
export interface ApiKeyEntry {
  t: "apiKey";
  apiKey: string;
  name: string;
}

/**
 * Control actions that are more than one transaction: replayed as the action, with the times they had.
 * `heads` (each chain's head after a time move: number, hash, time) is what the index needs of it.
 */
export type ControlEntry =
  | { t: "snapshot"; id: string }
  | { t: "revert"; id: string }
  | { t: "time"; chainIds: number[]; at: number[]; heads?: [number, Hex, number][] };

/**
 * A fragment applied to the world (POST /_sim/scenario), as it was sent, the time its "now" stood for and the base of
 * its collections' uris.
 */
export interface ScenarioEntry {
  t: "scenario";
  fragment: unknown;
  now: number;
  baseUrl: string;
}

/**
 * The first line: which world (and chains) the journal was written on, in which format (absent: the first), and its
 * generation (a reset starts a new one).
 */
export interface WorldEntry {
  t: "world";
  id: string;
  format?: number;
  generation?: string;
}

/** One line of the journal: everything acknowledged since the world was loaded, in order. */
export type JournalEntry = WorldEntry | ChainEntry | ApiKeyEntry | ControlEntry | ScenarioEntry;
