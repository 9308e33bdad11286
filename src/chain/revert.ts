import { decodeErrorResult, type Abi, type Hex } from "viem";
import type { Abis } from "../core/abi.ts";

/** How a contract's custom errors read to a caller: one line per error name. */
export type RevertRules = Record<string, (args: readonly unknown[]) => string>;

/** The contract refused the call: its custom error, and the rule that error stands for (if the action names one). */
export class ChainRevert extends Error {
  readonly errorName: string;
  readonly args: readonly unknown[];
  readonly rule: string | undefined;

  constructor(errorName: string, args: readonly unknown[], rule: string | undefined) {
    super(rule ?? `the contract reverted with ${errorName}`);
    this.name = "ChainRevert";
    this.errorName = errorName;
    this.args = args;
    this.rule = rule;
  }
}

/**
 * A node answered, and refused the transaction without running it: its nonce clashed with another
 * writer's (for every fresh nonce tried), the wallet cannot pay for it, or the node's rules say no.
 * The node is there: this is not an outage.
 */
export class TransactionRefused extends Error {
  /** Another writer kept taking the wallet's nonces (nonce too low, already known, replacement underpriced). */
  readonly nonceClash: boolean;
  constructor(message: string, nonceClash: boolean) {
    super(message);
    this.name = "TransactionRefused";
    this.nonceClash = nonceClash;
  }
}

/** The chain did not take the call at all (not a revert). */
export class ChainUnavailable extends Error {
  constructor(cause: unknown) {
    super(String((cause as Error)?.message ?? cause).split("\n")[0]);
    this.name = "ChainUnavailable";
  }
}

/** Every custom error of the contracts, to decode a revert against. */
export function errorsAbiOf(abis: Abis): Abi {
  return [...abis.collection, ...abis.marketplace, ...abis.factory, ...abis.stablecoin].filter(
    (entry) => entry.type === "error",
  );
}

/**
 * Turns what EDR or a node threw for a transaction or estimate into a ChainRevert (a custom error
 * decoded against the contracts' ABIs, named by `rules`), a TransactionRefused (as the node's writer
 * told it) or ChainUnavailable.
 */
export function chainErrorOf(
  error: unknown,
  errorsAbi: Abi,
  rules: RevertRules = {},
): ChainRevert | ChainUnavailable | TransactionRefused {
  if (error instanceof TransactionRefused) return error;
  const data = revertData(error);
  if (!data) return new ChainUnavailable(error);
  try {
    const { errorName, args = [] } = decodeErrorResult({ abi: errorsAbi, data });
    return new ChainRevert(errorName, args, rules[errorName]?.(args));
  } catch {
    return new ChainRevert("Reverted", [], undefined);
  }
}

/** The revert data an error carries, if the call reverted (EDR's errors and a node's JSON-RPC errors carry it so). */
export function revertData(error: unknown): Hex | undefined {
  const data = (error as { data?: unknown })?.data;
  const hex = typeof data === "string" ? data : (data as { data?: unknown } | undefined)?.data;
  return typeof hex === "string" && /^0x[0-9a-fA-F]*$/.test(hex) ? (hex as Hex) : undefined;
}
