import hre from "hardhat";
import { BaseError, ContractFunctionRevertedError, decodeErrorResult, parseEventLogs, type Abi, type Hex } from "viem";

export type Connection = Awaited<ReturnType<typeof hre.network.create>>;
export type Viem = Connection["viem"];
export type PublicClient = Awaited<ReturnType<Viem["getPublicClient"]>>;
export type WalletClient = Awaited<ReturnType<Viem["getWalletClients"]>>[number];

export interface DecodedEvent {
  eventName: string;
  args: Record<string, unknown>;
  address: string;
  logIndex: number;
}

/** ABIs of every project contract, merged, so one decode covers all logs of a receipt. */
export async function projectAbi(): Promise<Abi> {
  const names = ["Collection", "CollectionFactory", "Marketplace", "TestStablecoin"];
  const abis = await Promise.all(names.map(async (n) => (await hre.artifacts.readArtifact(n)).abi as Abi));
  const seen = new Set<string>();
  const merged: Abi[number][] = [];
  for (const item of abis.flat()) {
    if (item.type !== "event" && item.type !== "error") continue;
    const key = JSON.stringify(item);
    if (seen.has(key)) continue;
    seen.add(key);
    merged.push(item);
  }
  return merged;
}

/** Waits for the transaction and returns its decoded events in log order. */
export async function eventsOf(publicClient: PublicClient, abi: Abi, hash: Hex): Promise<DecodedEvent[]> {
  const receipt = await publicClient.waitForTransactionReceipt({ hash });
  if (receipt.status !== "success") throw new Error(`transaction ${hash} reverted`);
  return parseEventLogs({ abi, logs: receipt.logs })
    .map((log) => ({
      eventName: log.eventName,
      args: log.args as unknown as Record<string, unknown>,
      address: log.address.toLowerCase(),
      logIndex: log.logIndex,
    }))
    .sort((a, b) => a.logIndex - b.logIndex);
}

/** Lower-cases a value if it is an address (so checksums do not matter); anything else is returned as is. */
export function lc(value: unknown): unknown {
  return typeof value === "string" && /^0x[0-9a-fA-F]{40}$/.test(value) ? value.toLowerCase() : value;
}

/** Lower-cases every address field so addresses compare regardless of checksum. */
export function normalize(args: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(args).map(([k, v]) => [k, Array.isArray(v) ? v.map(lc) : lc(v)]));
}

export interface Revert {
  errorName: string;
  args: readonly unknown[];
}

/**
 * Awaits a contract call that must revert and returns the decoded custom error. Errors
 * raised by a contract other than the one called (e.g. the collection during a marketplace
 * call) are decoded with the merged project ABI.
 */
export async function revertOf(abi: Abi, promise: Promise<unknown>): Promise<Revert> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof BaseError) {
      const reverted = error.walk((e) => e instanceof ContractFunctionRevertedError);
      if (reverted instanceof ContractFunctionRevertedError && reverted.raw && reverted.raw !== "0x") {
        const decoded = decodeErrorResult({ abi, data: reverted.raw });
        return { errorName: decoded.errorName, args: (decoded.args ?? []).map(lc) };
      }
    }
    throw error;
  }
  throw new Error("expected the call to revert, but it succeeded");
}
