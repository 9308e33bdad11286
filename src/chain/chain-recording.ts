import { toEventSelector, type AbiEvent } from "viem";
import { indexedEventsAbi } from "../indexer/decode.ts";
import type { Abis } from "../core/abi.ts";
import type { BlockStep, RequestProvider } from "./block-batcher.ts";
import { blockEntries, runRecorded } from "./recorded.ts";
import type { ChainRecorder } from "./recorder.ts";
import type { Savepoint } from "./savepoint.ts";

/** The first topic of every event the index follows: the logs a record keeps. */
export function followedTopics(abis: Abis): ReadonlySet<string> {
  return new Set(indexedEventsAbi(abis).map((event) => toEventSelector(event as AbiEvent)));
}

/**
 * Each block a batcher makes, as one step of `recorder`: recorded as what it held and did, taken back to `savepoint` if
 * that cannot be made durable.
 */
export function recordedBlocks(
  recorder: ChainRecorder,
  provider: RequestProvider,
  chainId: number,
  followed: ReadonlySet<string>,
  savepoint: () => Promise<Savepoint>,
): BlockStep {
  return (make) =>
    recorder.stepAhead(async (record) => {
      for (const entry of await blockEntries(provider, chainId, await make(), followed)) record(entry);
    }, savepoint);
}

/**
 * A state-changing call from outside, as one step of the journal, recorded with what it mined.
 * An evm_revert cannot be taken back: it is made durable first (a revert that then fails fails the
 * same way when replayed).
 */
export function recordedCall<T>(
  on: { recorder: ChainRecorder; provider: RequestProvider; chainId: number; followed: ReadonlySet<string> },
  { method, params }: { method: string; params: unknown[] },
  call: () => Promise<T>,
  savepoint: (() => Promise<Savepoint>) | undefined,
): Promise<T> {
  const entry = { t: "rpc" as const, chainId: on.chainId, method, params };
  if (method === "evm_revert") return on.recorder.first(entry, call);
  return on.recorder.step(
    (record) => runRecorded(on.provider, call, on.followed, (made) => record({ ...entry, ...made })),
    savepoint,
  );
}
