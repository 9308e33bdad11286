import { keccak256, type Address, type Hex } from "viem";
import { privateKeyToAccount, type PrivateKeyAccount } from "viem/accounts";
import { apiError, ERRORS } from "../../core/errors.ts";
import { lowerAddress } from "../../core/formats.ts";
import { revertData } from "../revert.ts";
import type { SendableTx } from "../block-batcher.ts";
import { NodeRpcError, type NodeRpc, type RawReceipt, type RpcCall, type RpcOutcome } from "./rpc.ts";

// How long a timed write (the replay) waits for its block on a node that does not mine at once.
const MINED_WITHIN_MS = 120_000;
const RECEIPTS_KEPT = 256;
// How long an untimed write (the API's) looks for its receipt before leaving the wait to its caller.
const UNTIMED_WAIT_MS = 1_000;
// How anvil ("No Signer available") and Hardhat's node ("Unknown account") refuse a sender they do not impersonate.
const NOT_IMPERSONATED = /no signer|unknown account|not impersonat|sender account not recognized/i;
// How nodes refuse a nonce another writer took first (geth, anvil, Hardhat's node, providers).
const NONCE_CLASH =
  /nonce too low|nonce too high|already known|known transaction|replacement transaction underpriced|nonce has already been used|transaction already imported|invalid nonce/i;
// A clash is tried again with a fresh nonce from the node this many times in all, after a short, growing, random wait.
const NONCE_ATTEMPTS = 12;

/** A transaction as the simulator sends it (`to` absent: a contract creation). */
export type NodeTx = Omit<SendableTx, "to"> & { from: Address; to?: Address; data: Hex };

/**
 * Sends the simulator's transactions to a node it did not start, in as few round trips as it
 * can: the block time and the transaction go in one JSON-RPC batch. A timed write (the replay)
 * on a node with EIP-7966's synchronous sends (anvil) gets its receipt in that same answer: one
 * round trip. Otherwise the receipt is asked for after (signed locally, in the same batch too,
 * since the hash is known before sending), and again until the node has mined it.
 */
export class NodeWriter {
  readonly #rpc: NodeRpc;
  readonly #chainId: number;
  readonly #signers: Map<Address, PrivateKeyAccount> | undefined;
  readonly #nonces = new Map<Address, number>();
  readonly #receipts = new Map<Hex, RawReceipt>();
  /** Each wallet's sends, one at a time: in this process, a wallet's nonces are taken in order. */
  readonly #queues = new Map<Address, Promise<unknown>>();

  /**
   * With `keys`, every sender must be one of them and is signed for here; without, the node sends as anyone
   * (impersonation).
   */
  readonly #sendsSync: boolean;

  constructor(
    rpc: NodeRpc,
    chainId: number,
    { keys, sendsSync = false }: { keys?: readonly Hex[]; sendsSync?: boolean } = {},
  ) {
    this.#rpc = rpc;
    this.#chainId = chainId;
    this.#sendsSync = sendsSync;
    this.#signers =
      keys &&
      new Map(keys.map((key) => privateKeyToAccount(key)).map((account) => [lowerAddress(account.address), account]));
  }

  /** Transactions are signed here with the given keys (nothing is impersonated or funded). */
  get signs(): boolean {
    return this.#signers !== undefined;
  }

  /** The addresses of the given keys. */
  signers(): Address[] {
    return [...(this.#signers?.keys() ?? [])];
  }

  /** Reads every signer's next nonce in one round trip (otherwise each is read on its first send). */
  async primeNonces(): Promise<void> {
    const addresses = this.signers();
    if (addresses.length === 0) return;
    const outcomes = await this.#rpc.batch(
      addresses.map((address) => ({ method: "eth_getTransactionCount", params: [address, "pending"] })),
    );
    outcomes.forEach((outcome, i) => "result" in outcome && this.#nonces.set(addresses[i]!, Number(outcome.result)));
  }

  /**
   * Sends `tx`, in a block stamped `at` when given, and answers its hash. A timed write answers
   * once mined (the next one's time is for the next block); a reverted one throws what it
   * reverted with. Receipts are kept for `takeReceipt`.
   */
  async send(tx: NodeTx, at?: number): Promise<Hex> {
    const stamp: RpcCall[] = at === undefined ? [] : [{ method: "evm_setNextBlockTimestamp", params: [at] }];
    // Only a timed write waits in the send: an API write on a node with a block time answers at once (its caller waits,
    // with a timeout).
    const sync = at !== undefined && this.#sendsSync;
    const { hash, receipt } = await this.#inTurn(lowerAddress(tx.from), () =>
      this.#signers ? this.#sendSigned(tx, stamp, sync) : this.#sendImpersonated(tx, stamp, sync),
    );
    // An automining node mines within milliseconds; one with a block time leaves an API write to its caller's wait.
    const mined = receipt ?? (await this.#minedReceipt(hash, at !== undefined));
    if (!mined) return hash;
    if (mined.status !== "0x1") throw await this.#revertOf(tx, mined);
    if (this.#receipts.size >= RECEIPTS_KEPT) this.#receipts.clear();
    this.#receipts.set(hash, mined);
    return hash;
  }

  /** The receipt of a transaction this writer sent and saw mined, once. */
  takeReceipt(hash: Hex): RawReceipt | undefined {
    const receipt = this.#receipts.get(hash);
    this.#receipts.delete(hash);
    return receipt;
  }

  /** Runs `send` once the wallet's earlier sends from this process are done. */
  #inTurn<T>(wallet: Address, send: () => Promise<T>): Promise<T> {
    const turn = (this.#queues.get(wallet) ?? Promise.resolve()).then(send);
    const settled = turn.catch(() => undefined);
    this.#queues.set(wallet, settled);
    void settled.then(() => this.#queues.get(wallet) === settled && this.#queues.delete(wallet));
    return turn;
  }

  async #sendImpersonated(
    tx: NodeTx,
    stamp: RpcCall[],
    sync: boolean,
  ): Promise<{ hash: Hex; receipt: RawReceipt | null }> {
    const send = { method: sync ? "eth_sendTransactionSync" : "eth_sendTransaction", params: [tx] };
    const outcomes = await this.#clashesRetried(tx.from, stamp.length, async () => {
      let outcomes = await this.#rpc.batch([...stamp, send]);
      const sent = outcomes[stamp.length]!;
      if ("error" in sent && NOT_IMPERSONATED.test(sent.error.message)) {
        // A node restarted with its state keeps balances but forgets whom it impersonated.
        await this.#rpc.request("hardhat_impersonateAccount", [tx.from]);
        outcomes = await this.#rpc.batch([...stamp, send]);
      }
      return outcomes;
    });
    const answer = resultOf(outcomes, stamp.length);
    throwIfUnstamped(outcomes, stamp.length);
    if (sync) return { hash: (answer as RawReceipt).transactionHash, receipt: answer as RawReceipt };
    const hash = answer as Hex;
    return { hash, receipt: (await this.#rpc.request("eth_getTransactionReceipt", [hash])) as RawReceipt | null };
  }

  async #sendSigned(tx: NodeTx, stamp: RpcCall[], sync: boolean): Promise<{ hash: Hex; receipt: RawReceipt | null }> {
    const from = lowerAddress(tx.from);
    const account = this.#signers!.get(from);
    if (!account) throw new Error(`chain ${this.#chainId}: no key for ${from}; add it to the keys file (--keys)`);
    let hash: Hex = "0x";
    let nonce = 0;
    // A timed write (the world loading, nobody else writing yet) counts its own nonces; any other asks the node,
    // which alone knows what other writers sent, or whether the chain went back.
    const timed = stamp.length > 0;
    const outcomes = await this.#clashesRetried(from, stamp.length, async () => {
      nonce =
        (timed ? this.#nonces.get(from) : undefined) ??
        Number(await this.#rpc.request("eth_getTransactionCount", [from, "pending"]));
      const raw = await account.signTransaction({
        type: "eip1559",
        chainId: this.#chainId,
        nonce,
        ...(tx.to ? { to: tx.to } : {}),
        data: tx.data,
        ...(tx.value ? { value: BigInt(tx.value) } : {}),
        gas: BigInt(tx.gas),
        maxFeePerGas: BigInt(tx.maxFeePerGas!),
        maxPriorityFeePerGas: BigInt(tx.maxPriorityFeePerGas!),
      });
      hash = keccak256(raw);
      const sends: RpcCall[] = sync
        ? [{ method: "eth_sendRawTransactionSync", params: [raw] }]
        : [
            { method: "eth_sendRawTransaction", params: [raw] },
            { method: "eth_getTransactionReceipt", params: [hash] },
          ];
      return this.#rpc.batch([...stamp, ...sends]);
    });
    this.#nonces.set(from, nonce + 1);
    throwIfUnstamped(outcomes, stamp.length);
    return { hash, receipt: resultOf(outcomes, sync ? stamp.length : stamp.length + 1) as RawReceipt | null };
  }

  /**
   * Sends (`attempt` answers a batch whose call at `sendAt` is the send) until the node takes
   * the transaction. A nonce another writer took first (another process sending for the same wallet) is
   * tried again with the node's next one, a bounded number of times; any other refusal is not.
   */
  async #clashesRetried(from: Address, sendAt: number, attempt: () => Promise<RpcOutcome[]>): Promise<RpcOutcome[]> {
    for (let tries = 1; ; tries += 1) {
      const outcomes = await attempt();
      const sent = outcomes[sendAt]!;
      if (!("error" in sent)) return outcomes;
      const { error } = sent;
      // A node that runs the transaction as it takes it (Hardhat's) says a revert here: that is the contract's answer.
      if (revertData(error)) throw error;
      this.#nonces.delete(lowerAddress(from));
      const clash = NONCE_CLASH.test(error.message);
      if (!clash || tries >= NONCE_ATTEMPTS) {
        const why = clash
          ? `its nonce was taken by another writer ${tries} times in a row (${error.message})`
          : error.message;
        // The node is there and answered: not an outage. Nothing was sent.
        throw apiError(
          clash ? ERRORS.NONCE_CONFLICT : ERRORS.TRANSACTION_REFUSED,
          {},
          { errors: [`chain ${this.#chainId} refused the transaction from ${from}: ${why}`] },
        );
      }
      await new Promise((resolve) => setTimeout(resolve, Math.random() * 10 * tries));
    }
  }

  /**
   * Asks until the node has mined it (at once again: an automining node mines within a millisecond or two; then less
   * and less often); an untimed write gives up after a second, its caller waits on.
   */
  async #minedReceipt(hash: Hex, timed: boolean): Promise<RawReceipt | undefined> {
    const withinMs = timed ? MINED_WITHIN_MS : UNTIMED_WAIT_MS;
    const deadline = Date.now() + withinMs;
    for (let wait = 0; ; wait = Math.min(Math.max(1, wait * 2), 200)) {
      const receipt = (await this.#rpc.request("eth_getTransactionReceipt", [hash])) as RawReceipt | null;
      if (receipt) return receipt;
      if (Date.now() > deadline) {
        if (!timed) return undefined;
        throw new Error(`transaction ${hash} was not mined within ${withinMs / 1000} s`);
      }
      await new Promise((resolve) => setTimeout(resolve, wait));
    }
  }

  /** What a mined, reverted transaction reverted with: the same call against the state before its block. */
  async #revertOf(tx: NodeTx, receipt: RawReceipt): Promise<Error> {
    const before = `0x${(BigInt(receipt.blockNumber) - 1n).toString(16)}`;
    const { gas: _gas, ...call } = tx;
    return this.#rpc.request("eth_call", [call, before]).then(
      () => new Error(`transaction ${receipt.transactionHash} reverted`),
      (error: unknown) => error as Error,
    );
  }
}

function resultOf(outcomes: RpcOutcome[], index: number): unknown {
  const outcome = outcomes[index]!;
  if ("error" in outcome) throw outcome.error;
  return outcome.result;
}

/**
 * The block time was refused (a node past that time): the transaction went in at another time, so the world is wrong.
 */
function throwIfUnstamped(outcomes: RpcOutcome[], stamped: number): void {
  const stamp = stamped > 0 ? outcomes[0] : undefined;
  if (stamp && "error" in stamp)
    throw new NodeRpcError("evm_setNextBlockTimestamp", {
      code: stamp.error.code,
      message: `the node refused the block time (${stamp.error.message})`,
    });
}
