import type { Hex } from "viem";
import type { ChainEntry } from "../chain/recorder.ts";

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
