import { decodeErrorResult, type Abi, type Hex } from "viem";

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

/** The chain did not take the call at all (not a revert). */
export class ChainUnavailable extends Error {
  constructor(cause: unknown) {
    super(String((cause as Error)?.message ?? cause).split("\n")[0]);
    this.name = "ChainUnavailable";
  }
}

/**
 * Turns what EDR threw for a transaction or estimate into a ChainRevert (a custom error
 * decoded against the contracts' ABIs, named by `rules`) or ChainUnavailable.
 */
export function chainErrorOf(error: unknown, errorsAbi: Abi, rules: RevertRules = {}): ChainRevert | ChainUnavailable {
  const data = revertData(error);
  if (!data) return new ChainUnavailable(error);
  try {
    const { errorName, args = [] } = decodeErrorResult({ abi: errorsAbi, data });
    return new ChainRevert(errorName, args, rules[errorName]?.(args));
  } catch {
    return new ChainRevert("Reverted", [], undefined);
  }
}

function revertData(error: unknown): Hex | undefined {
  const data = (error as { data?: unknown })?.data;
  const hex = typeof data === "string" ? data : (data as { data?: unknown } | undefined)?.data;
  return typeof hex === "string" && /^0x[0-9a-fA-F]*$/.test(hex) ? (hex as Hex) : undefined;
}
