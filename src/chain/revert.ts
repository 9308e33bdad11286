import { BaseError, ContractFunctionRevertedError } from "viem";

/** The custom error a contract reverted with, if the failure was a revert. */
export function revertOf(error: unknown): { name: string; args: readonly unknown[] } | undefined {
  if (!(error instanceof BaseError)) return undefined;
  const reverted = error.walk((cause) => cause instanceof ContractFunctionRevertedError);
  if (!(reverted instanceof ContractFunctionRevertedError)) return undefined;
  const name = reverted.data?.errorName ?? reverted.reason ?? "Reverted";
  return { name, args: reverted.data?.args ?? [] };
}
