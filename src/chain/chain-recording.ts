import { toEventSelector, type AbiEvent, type Hex } from "viem";
import { indexedEventsAbi } from "../indexer/decode.ts";
import type { ChainIndexer } from "../indexer/indexer.ts";
import type { Abis } from "../core/abi.ts";
import type { BlockStep, RequestProvider } from "./block-batcher.ts";
import { blockEntries, runRecorded } from "./recorded.ts";
import type { ChainRecorder, Savepoint } from "./recorder.ts";

/** The first topic of every event the index follows: the logs a record keeps. */
export function followedTopics(abis: Abis): ReadonlySet<string> {
  return new Set(indexedEventsAbi(abis).map((event) => toEventSelector(event as AbiEvent)));
}

/**
 * Where a recorded change to an in-process chain can be taken back to: a node snapshot taken
 * before it (evm_snapshot), while the index reads nothing past the head it had (`hold`: a block
 * not durable yet is never answered from). `reverted` is told the snapshot id a take-back went back to.
 */
export async function savepointOf(
  provider: RequestProvider,
  indexer: ChainIndexer,
  reverted: (id: Hex) => void,
): Promise<Savepoint> {
  const head = Number(BigInt((await provider.request({ method: "eth_blockNumber", params: [] })) as Hex));
  const id = (await provider.request({ method: "evm_snapshot", params: [] })) as Hex;
  indexer.hold(head);
  return {
    takeBack: async () => {
      await provider.request({ method: "evm_revert", params: [id] });
      reverted(id);
    },
    release: () => indexer.release(head),
  };
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
