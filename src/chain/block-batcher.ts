import type { Hex } from "viem";

/** The part of an EIP-1193 provider the batcher drives. */
export interface RequestProvider {
  request(args: { method: string; params?: unknown[] }): Promise<unknown>;
}

/** A transaction as eth_sendTransaction takes it, with its gas limit (hex) already set. */
export type SendableTx = Record<string, string> & { gas: Hex };

/**
 * A transaction that reached the chain in one block the batcher made: its receipt, or null while it waits in the pool.
 */
export interface Sent {
  tx: SendableTx;
  hash: Hex;
  receipt: { blockNumber: Hex; blockHash: Hex; status: Hex; logs: unknown[] } | null;
}

/**
 * How the batcher's blocks are recorded (a journal, `recordWith`): each block is made inside one
 * step, which learns what reached the chain, and answers once the block is recorded with a promise
 * of its durability. A step that throws was refused before the block; a durability that rejects
 * took the block back: either way every writer of the block gets the error. The next block is
 * made while one is made durable.
 */
export type BlockStep = (make: () => Promise<Sent[]>) => Promise<{ durable: Promise<void> }>;

interface Job {
  /** A transaction that may share a block, or something that must run alone (automine on). */
  tx?: SendableTx;
  run?: () => Promise<unknown>;
  resolve(value: unknown): void;
  reject(error: unknown): void;
}

type Outcome = { hash: Hex } | { error: unknown };

// A block holds at most this many batched transactions, and at most this much of their gas
// (EDR's default block gas limit is 60M; what does not fit waits for the next block).
const MAX_PER_BLOCK = 64;
const MAX_GAS_PER_BLOCK = 30_000_000n;

/**
 * Mines transactions that wait together into one block, as a chain with a block time
 * would: a transaction sent while the chain is idle is mined at once (automine, as
 * before); those that arrive while a block is being made wait, and are then sent
 * with automine off and mined by one `evm_mine`. Every send resolves only once its
 * block is mined (and recorded, `recordWith`), so read-your-writes holds. Anything else that changes the chain
 * (`exclusive`) runs alone between blocks.
 */
export class BlockBatcher {
  readonly #provider: RequestProvider;
  readonly #queue: Job[] = [];
  #draining = false;
  /**
   * Automine is on, as this batcher last left it: nothing else ran on the chain since (an `exclusive` call may switch
   * it off).
   */
  #automineOn = false;
  /** Receipts of batched transactions, fetched to settle them, kept until their writer asks (`takeReceipt`). */
  readonly #receipts = new Map<Hex, unknown>();
  #step: BlockStep | undefined;

  constructor(provider: RequestProvider) {
    this.#provider = provider;
  }

  /** Every block from now on is made inside `step` (undefined: no longer recorded). */
  recordWith(step: BlockStep | undefined): void {
    this.#step = step;
  }

  /**
   * Something else ran on the chain (outside `exclusive`): automine is asked for again before the next shared block.
   */
  touched(): void {
    this.#automineOn = false;
  }

  /** Sends a transaction; answers its hash once its block is mined. */
  send(tx: SendableTx): Promise<Hex> {
    return this.#enqueue({ tx }) as Promise<Hex>;
  }

  /** The raw receipt of a sent transaction, once (undefined if it was asked for before, or is not mined yet). */
  takeReceipt(hash: Hex): unknown {
    const receipt = this.#receipts.get(hash);
    this.#receipts.delete(hash);
    return receipt;
  }

  /** Runs `run` alone: no batched block is open meanwhile (writes that set their own block time, outside JSON-RPC). */
  exclusive<T>(run: () => Promise<T>): Promise<T> {
    return this.#enqueue({ run }) as Promise<T>;
  }

  #enqueue(job: Omit<Job, "resolve" | "reject">): Promise<unknown> {
    return new Promise((resolve, reject) => {
      this.#queue.push({ ...job, resolve, reject });
      if (!this.#draining) void this.#drain();
    });
  }

  async #drain(): Promise<void> {
    this.#draining = true;
    try {
      while (this.#queue.length > 0) {
        const head = this.#queue[0]!;
        if (head.run) {
          this.#queue.shift();
          this.#automineOn = false;
          await head.run().then(head.resolve, head.reject);
          continue;
        }
        await this.#makeBlock(this.#takeBatch());
      }
    } finally {
      this.#draining = false;
    }
  }

  /**
   * One block of `batch` (a step when recorded); its writers are answered once it is durable, while the next block is
   * made.
   */
  async #makeBlock(batch: Job[]): Promise<void> {
    const outcomes = new Map<Job, Outcome>();
    const make = () =>
      batch.length === 1 ? this.#sendAlone(batch[0]!, outcomes) : this.#mineTogether(batch, outcomes);
    let sent: Sent[] = [];
    const answer = () => {
      for (const job of batch) {
        const outcome = outcomes.get(job) ?? { error: new Error("the block was not made") };
        if ("hash" in outcome) job.resolve(outcome.hash);
        else job.reject(outcome.error);
      }
    };
    const fail = (error: unknown) => {
      for (const { hash } of sent) this.#receipts.delete(hash);
      for (const job of batch) outcomes.set(job, { error });
      answer();
    };
    if (!this.#step) return void (await make(), answer());
    try {
      const { durable } = await this.#step(async () => (sent = await make()));
      void durable.then(answer, fail);
    } catch (error) {
      fail(error);
    }
  }

  /** The transactions at the head of the queue that fit in one block. */
  #takeBatch(): Job[] {
    const batch: Job[] = [];
    let gas = 0n;
    while (batch.length < MAX_PER_BLOCK && this.#queue[0]?.tx) {
      const next = BigInt(this.#queue[0].tx.gas);
      if (batch.length > 0 && gas + next > MAX_GAS_PER_BLOCK) break;
      gas += next;
      batch.push(this.#queue.shift()!);
    }
    return batch;
  }

  async #sendAlone(job: Job, outcomes: Map<Job, Outcome>): Promise<Sent[]> {
    let hash: Hex | undefined;
    try {
      hash = (await this.#request("eth_sendTransaction", [job.tx])) as Hex;
    } catch (error) {
      // A transaction that reverted is mined all the same (the chain names it in the error): it reached the chain.
      outcomes.set(job, { error });
      hash = (error as { transactionHash?: Hex })?.transactionHash;
      if (!hash) return [];
    }
    // Mined at once with automine on (its writer will want the receipt, `takeReceipt`); with automine switched off from
    // outside it is still in the pool, and its writer waits for it.
    const receipt = (await this.#request("eth_getTransactionReceipt", [hash]).catch(() => null)) as Sent["receipt"];
    if (!outcomes.has(job)) this.#succeeded(job, hash, receipt, outcomes);
    return [{ tx: job.tx!, hash, receipt }];
  }

  #request(method: string, params: unknown[] = []): Promise<unknown> {
    return this.#provider.request({ method, params });
  }

  #succeeded(job: Job, hash: Hex, receipt: unknown, outcomes: Map<Job, Outcome>): void {
    // Receipts nobody came for (a writer that did not wait) do not pile up.
    if (this.#receipts.size > 4 * MAX_PER_BLOCK) this.#receipts.clear();
    if (receipt) this.#receipts.set(hash, receipt);
    outcomes.set(job, { hash });
  }

  async #mineTogether(batch: Job[], outcomes: Map<Job, Outcome>): Promise<Sent[]> {
    // Automine switched off from outside (a stalled chain on purpose): leave it so, send each as is.
    if (!this.#automineOn && (await this.#request("hardhat_getAutomine")) === false) {
      const sent: Sent[] = [];
      for (const job of batch) sent.push(...(await this.#sendAlone(job, outcomes)));
      return sent;
    }
    await this.#request("evm_setAutomine", [false]);
    const pooled: { job: Job; hash: Hex }[] = [];
    try {
      // Sent one after another: each takes the next nonce of its sender from the pending block.
      for (const job of batch) {
        const hash = (await this.#request("eth_sendTransaction", [job.tx]).catch((error: unknown) => {
          outcomes.set(job, { error });
        })) as Hex | undefined;
        if (hash !== undefined) pooled.push({ job, hash });
      }
      if (pooled.length > 0) await this.#request("evm_mine").catch(() => undefined);
    } finally {
      await this.#request("evm_setAutomine", [true]);
      this.#automineOn = true;
    }
    const settled = await Promise.all(pooled.map(({ job, hash }) => this.#settle(job, hash, outcomes)));
    return settled.filter((sent) => sent !== undefined);
  }

  /** A batched transaction's outcome: its hash if its block holds it and it succeeded, else what it reverted with. */
  async #settle(job: Job, hash: Hex, outcomes: Map<Job, Outcome>): Promise<Sent | undefined> {
    const receipt = (await this.#request("eth_getTransactionReceipt", [hash])) as Sent["receipt"];
    const sent: Sent = { tx: job.tx!, hash, receipt };
    if (!receipt) {
      // Not in the block (it did not fit): out of the pool too, so no later block takes it unrecorded.
      await this.#request("hardhat_dropTransaction", [hash]).catch(() => undefined);
      outcomes.set(job, { error: new Error(`transaction ${hash} was not mined`) });
      return undefined;
    }
    if (receipt.status === "0x1") return (this.#succeeded(job, hash, receipt, outcomes), sent);
    // Reverted inside its block: the same call against the chain as it now is tells the reason (what a lone send would
    // have thrown).
    const { gas: _gas, ...call } = job.tx!;
    const error = await this.#request("eth_estimateGas", [call]).then(
      () => new Error(`transaction ${hash} reverted`),
      (reason: unknown) => reason,
    );
    outcomes.set(job, { error });
    return sent;
  }
}
