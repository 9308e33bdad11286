import type { Hex } from "viem";
import { apiError, ERRORS } from "../core/errors.ts";
import type { ChainModels } from "./models.ts";

// How an index follows a chain it may share with others, and how it finds the chain is no longer the one it followed.

/**
 * A block the chain must still hold, with this hash, for the index to mean anything (where the core contracts were
 * deployed).
 */
export interface Anchor {
  blockNumber: number;
  hash: Hex;
}

/** How an indexer follows a chain it may share with others (a node given by --rpc-url). */
export interface FollowOptions {
  /** The first block that can hold the simulator's logs: nothing before it is read. */
  fromBlock?: number;
  /** Checked whenever the chain may have been rewritten: if it no longer holds this block, the chain was replaced. */
  anchor?: Anchor;
  /**
   * Told when a new block is stamped before the indexed head (a node restarted with a start time): time-derived answers
   * follow that clock.
   */
  onClockBack?: (message: string) => void;
}

/**
 * The chain no longer holds the block the index is anchored to: the node was restarted fresh, or points at another
 * chain (503).
 */
export function chainReplaced(chainId: number, anchor: Anchor, found: Hex | undefined) {
  const detail =
    `chain ${chainId} is not the chain the simulator loaded: block ${anchor.blockNumber}, where its contracts were ` +
    `deployed, ` +
    (found ? `is now ${found}, not ${anchor.hash}` : "is gone") +
    " (was the node restarted without its state?)";
  return apiError(ERRORS.CHAIN_REPLACED, { chainId }, { errors: [detail] });
}

/** What to say when the earliest of `blockTimes` is stamped before the indexed head's time (undefined: it is not). */
export function clockWentBack({ head, facts }: ChainModels, blockTimes: Map<bigint, number>): string | undefined {
  const [number, time] = [...blockTimes].reduce((earliest, entry) => (entry[1] < earliest[1] ? entry : earliest));
  if (head.blockNumber < 0 || time >= head.timestamp) return undefined;
  const at = (seconds: number) => new Date(seconds * 1000).toISOString();
  return (
    `chain ${facts.chainId}'s clock went back: block ${number} is stamped ${at(time)}, before block ` +
    `${head.blockNumber} (${at(head.timestamp)}); ` +
    "volumes and dates follow the chain's clock (was the node restarted with a start time, e.g. anvil " +
    "--timestamp?)"
  );
}
