import type { Hex } from "viem";

/** The part of an EIP-1193 provider the batcher drives. */
export interface RequestProvider {
  request(args: { method: string; params?: unknown[] }): Promise<unknown>;
}

/** A transaction as eth_sendTransaction takes it, with its gas limit (hex) already set. */
export type SendableTx = Record<string, string> & { gas: Hex };

interface Job {
  /** A transaction that may share a block, or something that must run alone (automine on). */
  tx?: SendableTx;
  run?: () => Promise<unknown>;
  resolve(value: unknown): void;
  reject(error: unknown): void;
}

// A block holds at most this many batched transactions, and at most this much of their gas
// (EDR's default block gas limit is 60M; what does not fit waits for the next block).
const MAX_PER_BLOCK = 64;
const MAX_GAS_PER_BLOCK = 30_000_000n;

/**
 * Mines transactions that wait together into one block, as a chain with a block time
 * would: a transaction sent while the chain is idle is mined at once (automine, as
 * before); those that arrive while a block is being made wait, and are then sent
 * with automine off and mined by one `evm_mine`. Every send resolves only once its
 * block is mined, so read-your-writes holds. Anything else that changes the chain
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
  /** Blocks and transactions sent through `send`, for the benchmark's and the tests' eyes. */
  readonly stats = { blocks: 0, transactions: 0 };

  constructor(provider: RequestProvider) {
    this.#provider = provider;
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
        const batch = this.#takeBatch();
        if (batch.length === 1) await this.#sendAlone(batch[0]!);
        else await this.#mineTogether(batch);
      }
    } finally {
      this.#draining = false;
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

  async #sendAlone(job: Job): Promise<void> {
    this.stats.blocks += 1;
    this.stats.transactions += 1;
    let hash: Hex;
    try {
      hash = (await this.#provider.request({ method: "eth_sendTransaction", params: [job.tx] })) as Hex;
    } catch (error) {
      return job.reject(error);
    }
    // Mined at once with automine on (its writer will want the receipt, `takeReceipt`); with automine switched off from
    // outside it is still in the pool, and its writer waits for it.
    this.#keepReceipt(
      hash,
      await this.#provider.request({ method: "eth_getTransactionReceipt", params: [hash] }).catch(() => null),
    );
    job.resolve(hash);
  }

  #keepReceipt(hash: Hex, receipt: unknown): void {
    // Receipts nobody came for (a writer that did not wait) do not pile up.
    if (this.#receipts.size > 4 * MAX_PER_BLOCK) this.#receipts.clear();
    if (receipt) this.#receipts.set(hash, receipt);
  }

  async #mineTogether(batch: Job[]): Promise<void> {
    const request = (method: string, params: unknown[] = []) => this.#provider.request({ method, params });
    // Automine switched off from outside (a stalled chain on purpose): leave it so, send each as is.
    if (!this.#automineOn && (await request("hardhat_getAutomine")) === false) {
      for (const job of batch) await this.#sendAlone(job);
      return;
    }
    await request("evm_setAutomine", [false]);
    let sent: PromiseSettledResult<unknown>[];
    try {
      // Sent one after another: each takes the next nonce of its sender from the pending block.
      sent = [];
      for (const job of batch) {
        sent.push(
          await request("eth_sendTransaction", [job.tx]).then(
            (value) => ({ status: "fulfilled" as const, value }),
            (reason: unknown) => ({ status: "rejected" as const, reason }),
          ),
        );
      }
      if (sent.some((s) => s.status === "fulfilled")) await request("evm_mine").catch(() => undefined);
    } finally {
      await request("evm_setAutomine", [true]);
      this.#automineOn = true;
    }
    this.stats.blocks += 1;
    this.stats.transactions += sent.filter((s) => s.status === "fulfilled").length;
    await Promise.all(batch.map((job, i) => this.#settle(job, sent[i]!)));
  }

  /** A batched transaction's outcome: its hash if its block holds it and it succeeded, else what it reverted with. */
  async #settle(job: Job, sent: PromiseSettledResult<unknown>): Promise<void> {
    if (sent.status === "rejected") return job.reject(sent.reason);
    const hash = sent.value as Hex;
    const receipt = (await this.#provider.request({ method: "eth_getTransactionReceipt", params: [hash] })) as {
      status: Hex;
    } | null;
    if (!receipt) return job.reject(new Error(`transaction ${hash} was not mined`));
    if (receipt.status === "0x1") {
      this.#keepReceipt(hash, receipt);
      return job.resolve(hash);
    }
    // Reverted inside its block: the same call against the chain as it now is tells the reason (what a lone send would
    // have thrown).
    const { gas: _gas, ...call } = job.tx!;
    await this.#provider
      .request({ method: "eth_estimateGas", params: [call] })
      .then(() => job.reject(new Error(`transaction ${hash} reverted`)), job.reject);
  }
}
