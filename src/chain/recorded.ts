import { toHex, type Address, type Hex } from "viem";
import type { RequestProvider, Sent } from "./block-batcher.ts";
import { FEES } from "./contract-call.ts";
import { pendingRaw } from "./raw-tx.ts";
import type { BlockEntry, ChainEntry, ChainRecorder, LogRecord, Mined, SentFields } from "./recorder.ts";

interface RawLog {
  address: Address;
  topics: Hex[];
  data: Hex;
  logIndex: Hex;
  transactionHash: Hex;
  blockNumber: Hex;
  blockTimestamp?: Hex;
}

interface RawBlock {
  number: Hex;
  hash: Hex;
  timestamp: Hex;
  transactions: Hex[];
}

/** The fields a transaction was sent with (what replaying it needs). */
export function fieldsOf(tx: Record<string, string>): SentFields {
  const { from, to, data, value, gas } = tx as unknown as SentFields;
  return { from, to, data, gas, ...(value ? { value } : {}) };
}

const logRecord = (log: RawLog, time: number): LogRecord => [
  Number(log.blockNumber),
  log.blockTimestamp === undefined ? time : Number(log.blockTimestamp),
  log.address.toLowerCase() as Address,
  log.topics,
  log.data,
  Number(log.logIndex),
  log.transactionHash,
];

/**
 * What one block the batcher made is recorded as: the block (its time, the simulator's transactions
 * in it in the block's order, its head and followed logs), and each transaction left in the pool as signed.
 */
export async function blockEntries(
  provider: RequestProvider,
  chainId: number,
  sent: Sent[],
  followed: ReadonlySet<string>,
): Promise<ChainEntry[]> {
  const entries: ChainEntry[] = [];
  const mined = sent.filter((one) => one.receipt);
  if (mined.length > 0) {
    const block = (await provider.request({
      method: "eth_getBlockByNumber",
      params: [mined[0]!.receipt!.blockNumber, false],
    })) as RawBlock;
    const at = Number(BigInt(block.timestamp));
    const order = new Map(block.transactions.map((hash, i) => [hash, i]));
    mined.sort((a, b) => order.get(a.hash)! - order.get(b.hash)!);
    const logs = mined
      .flatMap(({ receipt }) => receipt!.logs as RawLog[])
      .filter((log) => followed.has(log.topics[0] ?? ""))
      .map((log) => logRecord(log, at));
    const entry: BlockEntry = {
      t: "block",
      chainId,
      at,
      txs: mined.map(({ tx }) => fieldsOf(tx)),
      mined: { head: [Number(BigInt(block.number)), block.hash, at], logs },
    };
    entries.push(entry);
  }
  for (const { tx, hash } of sent.filter((one) => !one.receipt))
    entries.push({ t: "tx", chainId, ...fieldsOf(tx), ...(await pendingRaw(provider, hash)) });
  return entries;
}

/**
 * The time of the first block mined after `before`, and what the blocks since did to the index (nothing mined:
 * undefined).
 */
export async function minedSince(
  provider: RequestProvider,
  before: bigint,
  followed: ReadonlySet<string>,
): Promise<{ at: number; mined: Mined } | undefined> {
  const head = (await provider.request({ method: "eth_getBlockByNumber", params: ["latest", false] })) as RawBlock;
  const last = BigInt(head.number);
  if (last <= before) return undefined;
  const first =
    last === before + 1n
      ? head
      : ((await provider.request({ method: "eth_getBlockByNumber", params: [toHex(before + 1n), false] })) as RawBlock);
  const at = Number(BigInt(first.timestamp));
  const logs = (await provider.request({
    method: "eth_getLogs",
    params: [{ fromBlock: toHex(before + 1n), toBlock: toHex(last) }],
  })) as RawLog[];
  return {
    at,
    mined: {
      head: [Number(last), head.hash, Number(BigInt(head.timestamp))],
      logs: logs.filter((log) => followed.has(log.topics[0] ?? "")).map((log) => logRecord(log, at)),
    },
  };
}

/**
 * Runs a call that may mine blocks and records it with the time of the first and what they did, even if the call then
 * failed.
 */
export async function runRecorded<T>(
  provider: RequestProvider,
  call: () => Promise<T>,
  followed: ReadonlySet<string>,
  record: (made: { at?: number; mined?: Mined }) => void,
): Promise<T> {
  const before = BigInt((await provider.request({ method: "eth_blockNumber", params: [] })) as Hex);
  let failed: { error: unknown } | undefined;
  const result = await call().catch((error: unknown) => void (failed = { error }));
  const made = await minedSince(provider, before, followed);
  if (made || !failed) record(made ?? {});
  if (failed) throw failed.error;
  return result as T;
}

/**
 * A recorded block made again: its transactions into the pool, one block at its time (the same block, so the same
 * hash). Answers how many of them failed again (reverted in the block, or refused), as they had the first time.
 */
export async function replayBlock(provider: RequestProvider, entry: BlockEntry): Promise<number> {
  const request = (method: string, params: unknown[] = []) => provider.request({ method, params });
  const automine = (await request("hardhat_getAutomine")) as boolean;
  const hashes: (Hex | undefined)[] = [];
  await request("evm_setAutomine", [false]);
  try {
    for (const tx of entry.txs)
      hashes.push((await request("eth_sendTransaction", [{ ...tx, ...FEES }]).catch(() => undefined)) as Hex);
    await request("evm_mine", [entry.at]);
  } finally {
    await request("evm_setAutomine", [automine]);
  }
  const receipts = await Promise.all(
    hashes.map((hash) => hash && (request("eth_getTransactionReceipt", [hash]) as Promise<{ status: Hex } | null>)),
  );
  return receipts.filter((receipt) => receipt?.status !== "0x1").length;
}

/**
 * Sends alone, as one step of `recorder`, and records the transaction as sent with the time of the block it landed in
 * (a node we did not start: nothing there can be taken back). A transaction that reverted is mined all the same (the
 * error names it): it is recorded too, then the error thrown.
 */
export function sendRecorded(
  provider: RequestProvider,
  chainId: number,
  recorder: ChainRecorder,
  sendable: Record<string, string>,
  send: () => Promise<Hex>,
): Promise<Hex> {
  return recorder.step(async (record) => {
    let failed: { error: unknown } | undefined;
    const hash = await send().catch((error: { transactionHash?: Hex }) => {
      if (!error?.transactionHash) throw error;
      failed = { error };
      return error.transactionHash;
    });
    const block = (await provider.request({ method: "eth_getBlockByNumber", params: ["latest", false] })) as RawBlock;
    // One left in the pool is recorded as signed: the replay puts the same bytes back there, for the block that mined
    // it.
    const mined = block.transactions.includes(hash)
      ? { at: Number(BigInt(block.timestamp)) }
      : await pendingRaw(provider, hash);
    record({ t: "tx", chainId, ...fieldsOf(sendable), ...mined });
    if (failed) throw failed.error;
    return hash;
  });
}
