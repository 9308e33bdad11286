import {
  formatTransaction,
  keccak256,
  serializeTransaction,
  toEventSelector,
  toHex,
  type AbiEvent,
  type Address,
  type Hex,
  type RpcTransaction,
} from "viem";
import type { Abis } from "../core/abi.ts";
import type { RequestProvider, SendableTx, Sent } from "../chain/block-batcher.ts";
import { FEES } from "../chain/contract-call.ts";
import type { ChainRecorder, RecordedChain } from "../chain/recorder.ts";
import type { SimChain } from "../chain/sim-chain.ts";
import { indexedEventsAbi } from "../indexer/log-source.ts";
import type { BlockEntry, ChainEntry, LogRecord, Mined, SentFields } from "./entries.ts";
import type { Journal } from "./journal.ts";

// The chain's changes as lines of the journal: what a block, a call from outside or a send to a node is recorded as
// (read back from the chain once it is made), and a block line made again on replay.

/**
 * The journal listening to the chains: each change a chain tells of is one step of it, in the chain's order, recorded
 * as what it did (the followed logs too, so a restart folds them without the chains), taken back to the chain's
 * savepoint if its line cannot be made durable.
 */
export class ChainJournal implements ChainRecorder {
  readonly #journal: Journal;
  /** The first topics of the events the index follows: the logs a line keeps. */
  readonly #followed: ReadonlySet<string>;

  constructor(journal: Journal, abis: Abis) {
    this.#journal = journal;
    this.#followed = new Set(indexedEventsAbi(abis).map((event) => toEventSelector(event as AbiEvent)));
  }

  block({ chainId, provider, savepoint }: RecordedChain, make: () => Promise<Sent[]>) {
    return this.#journal.stepAhead(async (record) => {
      for (const entry of await blockEntries(provider, chainId, await make(), this.#followed)) record(entry);
    }, savepoint);
  }

  /** An evm_revert cannot be taken back: it is made durable first (one that then fails fails the same way on replay). */
  call<T>({ chainId, provider, savepoint }: RecordedChain, method: string, params: unknown[], call: () => Promise<T>) {
    const entry = { t: "rpc" as const, chainId, method, params };
    if (method === "evm_revert")
      return this.#journal.exclusive(async () => (await this.#journal.recordFirstHeld(() => entry), call()));
    // Recorded with the time of the first block it mined and what they did, even if the call then failed.
    return this.#journal.step(async (record) => {
      const before = BigInt((await provider.request({ method: "eth_blockNumber", params: [] })) as Hex);
      let failed: { error: unknown } | undefined;
      const result = await call().catch((error: unknown) => void (failed = { error }));
      const made = await minedSince(provider, before, this.#followed);
      if (made || !failed) record({ ...entry, ...made });
      if (failed) throw failed.error;
      return result as T;
    }, savepoint);
  }

  /**
   * Recorded as sent, with the time of the block it landed in (a node we did not start: nothing there can be taken
   * back). A transaction that reverted is mined all the same (the error names it): it is recorded too, then the error
   * thrown.
   */
  sent({ chainId, provider }: RecordedChain, sendable: SendableTx, send: () => Promise<Hex>): Promise<Hex> {
    return this.#journal.step(async (record) => {
      let failed: { error: unknown } | undefined;
      const hash = await send().catch((error: { transactionHash?: Hex }) => {
        if (!error?.transactionHash) throw error;
        failed = { error };
        return error.transactionHash;
      });
      const block = await blockAt(provider, "latest");
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
}

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

const blockAt = (provider: RequestProvider, block: Hex | "latest") =>
  provider.request({ method: "eth_getBlockByNumber", params: [block, false] }) as Promise<RawBlock>;

/** The fields a transaction was sent with (what replaying it needs). */
function fieldsOf(tx: Record<string, string>): SentFields {
  const { from, to, data, value, gas } = tx as unknown as SentFields;
  return { from, to, data, gas, ...(value ? { value } : {}) };
}

/** What blocks up to `head` did to the index: its head, followed logs (`time`: a log's block time if it has none). */
const minedOf = (head: RawBlock, logs: RawLog[], followed: ReadonlySet<string>, time: number): Mined => ({
  head: [Number(BigInt(head.number)), head.hash, Number(BigInt(head.timestamp))],
  logs: logs
    .filter((log) => followed.has(log.topics[0] ?? ""))
    .map((log): LogRecord => [
      Number(log.blockNumber),
      log.blockTimestamp === undefined ? time : Number(log.blockTimestamp),
      log.address.toLowerCase() as Address,
      log.topics,
      log.data,
      Number(log.logIndex),
      log.transactionHash,
    ]),
});

/**
 * What one block the batcher made is recorded as: the block (its time, the simulator's transactions
 * in it in the block's order, its head and followed logs), and each transaction left in the pool as signed.
 */
async function blockEntries(
  provider: RequestProvider,
  chainId: number,
  sent: Sent[],
  followed: ReadonlySet<string>,
): Promise<ChainEntry[]> {
  const entries: ChainEntry[] = [];
  const mined = sent.filter((one) => one.receipt);
  if (mined.length > 0) {
    const block = await blockAt(provider, mined[0]!.receipt!.blockNumber);
    const at = Number(BigInt(block.timestamp));
    const order = new Map(block.transactions.map((hash, i) => [hash, i]));
    mined.sort((a, b) => order.get(a.hash)! - order.get(b.hash)!);
    const logs = mined.flatMap(({ receipt }) => receipt!.logs as RawLog[]);
    entries.push({
      t: "block",
      chainId,
      at,
      txs: mined.map(({ tx }) => fieldsOf(tx)),
      mined: minedOf(block, logs, followed, at),
    });
  }
  for (const { tx, hash } of sent.filter((one) => !one.receipt))
    entries.push({ t: "tx", chainId, ...fieldsOf(tx), ...(await pendingRaw(provider, hash)) });
  return entries;
}

/**
 * The time of the first block mined after `before`, and what the blocks since did to the index (nothing mined:
 * undefined).
 */
async function minedSince(
  provider: RequestProvider,
  before: bigint,
  followed: ReadonlySet<string>,
): Promise<{ at: number; mined: Mined } | undefined> {
  const head = await blockAt(provider, "latest");
  const last = BigInt(head.number);
  if (last <= before) return undefined;
  const first = last === before + 1n ? head : await blockAt(provider, toHex(before + 1n));
  const at = Number(BigInt(first.timestamp));
  const logs = (await provider.request({
    method: "eth_getLogs",
    params: [{ fromBlock: toHex(before + 1n), toBlock: toHex(last) }],
  })) as RawLog[];
  return { at, mined: minedOf(head, logs, followed, at) };
}

/**
 * A chain's line made again on `chain` (before the journal records it: nothing is recorded twice). Answers how many of
 * its writes failed again, as they had the first time (mined though reverted, or refused).
 */
export async function replayChainEntry(chain: SimChain, entry: ChainEntry): Promise<number> {
  const failed = () => 1;
  switch (entry.t) {
    case "block":
      // The simulator's own calls, with the chain's snapshot ids.
      return replayBlock((method, params = []) => chain.request(method, params, quiet), entry);
    case "rpc":
      if (entry.at !== undefined) await chain.request("evm_setNextBlockTimestamp", [entry.at], quiet);
      return chain.request(entry.method, entry.params, { record: false, caller: true }).then(() => 0, failed);
    case "tx": {
      // One left in the pool, put back as signed; one of the first format, sent again at its block's time.
      if (entry.raw !== undefined)
        return chain.request("eth_sendRawTransaction", [entry.raw], quiet).then(() => 0, failed);
      const call = { to: entry.to, data: entry.data, ...(entry.value ? { value: BigInt(entry.value) } : {}) };
      const options = { gas: BigInt(entry.gas), ...(entry.at !== undefined ? { at: entry.at } : {}) };
      return chain.write(entry.from, call, {}, options).then(() => 0, failed);
    }
  }
}

/** Not recorded (a replay), with the chain's snapshot ids. */
const quiet = { record: false, caller: false };

/**
 * A recorded block made again: its transactions into the pool, one block at its time (the same block, so the same
 * hash). Answers how many of them failed again (reverted in the block, or refused), as they had the first time.
 */
async function replayBlock(request: (method: string, params?: unknown[]) => Promise<unknown>, entry: BlockEntry) {
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
 * The signed bytes of a transaction waiting in the chain's pool, rebuilt from what the chain tells
 * of it: `{ raw }` when they hash to `hash` (sent again, they are the same transaction), else `{}` (one of an account the
 * chain impersonates too: it has no signature).
 */
async function pendingRaw(provider: RequestProvider, hash: Hex): Promise<{ raw?: Hex }> {
  const found = (await provider.request({
    method: "eth_getTransactionByHash",
    params: [hash],
  })) as RpcTransaction | null;
  // An impersonated sender's transaction carries the chain's fake signature (r and s its address), which no one can send
  // raw: the replay sends it as the impersonated account again.
  if (!found || found.blockNumber || found.r === found.s) return {};
  // The fields of where it stands (its hash, sender, block) are not signed: the serializer leaves them out.
  const { r, s, v, yParity, input, ...fields } = formatTransaction(found) as ReturnType<typeof formatTransaction> & {
    yParity?: number;
  };
  const raw = serializeTransaction(
    { ...fields, data: input } as never,
    { r, s, ...(yParity !== undefined ? { yParity } : { v }) } as never,
  );
  return keccak256(raw) === hash ? { raw } : {};
}
