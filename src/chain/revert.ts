import { decodeErrorResult, type Abi, type Hex } from "viem";
import type { Abis } from "../core/abi.ts";
import { ApiError, apiError, ERRORS, oneLine } from "../core/errors.ts";

/** How a contract's custom errors read to a caller: one line per error name. */
export type RevertRules = Record<string, (args: readonly unknown[]) => string>;

/** The contract refused the call: its custom error, and the rule that error stands for (if the action names one). */
export class ChainRevert extends Error {
  readonly errorName: string;

  constructor(errorName: string, rule: string | undefined) {
    super(rule ?? `the contract reverted with ${errorName}`);
    this.name = "ChainRevert";
    this.errorName = errorName;
  }
}

/** Every custom error of the contracts, to decode a revert against. */
export function errorsAbiOf(abis: Abis): Abi {
  return [...abis.collection, ...abis.marketplace, ...abis.factory, ...abis.stablecoin].filter(
    (entry) => entry.type === "error",
  );
}

/**
 * Turns what EDR or a node threw for a transaction or estimate into a ChainRevert (a custom error decoded against the
 * contracts' ABIs, named by `rules`); an error of the catalog (the node's writer refused it, the journal did) stays
 * what it is; anything else is a chain that did not take the call.
 */
export function chainErrorOf(error: unknown, errorsAbi: Abi, rules: RevertRules = {}): ChainRevert | ApiError {
  if (error instanceof ApiError) return error;
  const data = revertData(error);
  if (!data) return apiError(ERRORS.CHAIN_UNAVAILABLE, {}, { errors: [oneLine(error)] });
  try {
    const { errorName, args = [] } = decodeErrorResult({ abi: errorsAbi, data });
    return new ChainRevert(errorName, rules[errorName]?.(args));
  } catch {
    return new ChainRevert("Reverted", undefined);
  }
}

/** The revert data an error carries, if the call reverted (EDR's errors and a node's JSON-RPC errors carry it so). */
export function revertData(error: unknown): Hex | undefined {
  const data = (error as { data?: unknown })?.data;
  const hex = typeof data === "string" ? data : (data as { data?: unknown } | undefined)?.data;
  return typeof hex === "string" && /^0x[0-9a-fA-F]*$/.test(hex) ? (hex as Hex) : undefined;
}
