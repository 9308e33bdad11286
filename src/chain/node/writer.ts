import { WaitForTransactionReceiptTimeoutError, type Address, type Hex } from "viem";
import { privateKeyToAccount, type PrivateKeyAccount } from "viem/accounts";
import { lowerAddress } from "../../core/formats.ts";
import type { WriteOptions } from "../contract-call.ts";
import type { NodeRpc, RawReceipt, RpcCall } from "./rpc.ts";
import {
  afterRefusal,
  clashPause,
  NONCE_ATTEMPTS,
  NONCE_CLASH,
  NOT_IMPERSONATED,
  transactionRefused,
  UNFUNDED,
} from "./send-refusals.ts";
import { minedReceipt, watching, type NodeTx, type Sent } from "./sent.ts";
import { impersonated, sendCountedOnce, signedBy, type SendContext } from "./counted-send.ts";
import { lowGasWarnings, walletUnfunded } from "./wallet-gas.ts";
import { WalletPool } from "./wallet-pool.ts";
import { WalletQueues } from "./wallet-queues.ts";

export type { NodeTx } from "./sent.ts";

// How long a timed write (the replay) waits for its block on a node that does not mine at once.
const MINED_WITHIN_MS = 120_000;
const RECEIPTS_KEPT = 256;
// How long an untimed write (the API's) looks for its receipt before leaving the wait to its caller.
const UNTIMED_WAIT_MS = 1_000;

interface SendOptions extends Pick<WriteOptions, "pooled"> {
  /**
   * The write joins others in a block its caller mines (mining held: the replay's entries that name one live block):
   * answered once the node has taken it, unmined.
   */
  pending?: boolean;
}

/**
 * Sends the simulator's transactions to a node it did not start, in as few round trips as it
 * can: the block time and the transaction go in one JSON-RPC batch. A timed write (the replay)
 * on a node with EIP-7966's synchronous sends (anvil) gets its receipt in that same answer: one
 * round trip. Otherwise the receipt is asked for after (signed locally, in the same batch too,
 * since the hash is known before sending), and again until the node has mined it.
 *
 * Each wallet's nonces are counted here, signing with keys or sending as an impersonated wallet alike (its sends from
 * this process go one at a time), and the batch that sends asks the node's count after it: another writer that sent
 * from the wallet meanwhile, a chain that went back, are seen there and the count follows the node's. Knowing each
 * transaction's nonce, the writer sees when another writer's transaction took it (see `mined`). A developer wallet
 * given a pool of keys (the keys file) has its mints signed by whichever wallet of the pool is free (see WalletPool).
 */
export class NodeWriter {
  readonly #rpc: NodeRpc;
  readonly #chainId: number;
  readonly #signers: Map<Address, PrivateKeyAccount> | undefined;
  readonly #pools = new Map<Address, WalletPool>();
  readonly #receipts = new Map<Hex, RawReceipt>();
  /** Signed writes that left `send` unmined (their caller waits through `mined`), and what was sent again for which. */
  readonly #unmined = new Map<Hex, { tx: NodeTx; pooled: boolean; sent: Sent }>();
  readonly #resentAs = new Map<Hex, Hex>();
  readonly #queues = new WalletQueues();
  readonly #sending: SendContext;

  /**
   * With `keys`, every sender must be one of them and is signed for here; without, the node sends as anyone
   * (impersonation). `pools`: each developer wallet's pool (its own wallet first), all among `keys`.
   */
  readonly #sendsSync: boolean;

  constructor(
    rpc: NodeRpc,
    chainId: number,
    {
      keys,
      pools = [],
      sendsSync = false,
    }: { keys?: readonly Hex[]; pools?: readonly (readonly Hex[])[]; sendsSync?: boolean } = {},
  ) {
    this.#rpc = rpc;
    this.#chainId = chainId;
    this.#sendsSync = sendsSync;
    this.#sending = { rpc, chainId, queues: this.#queues, noteBalance: lowGasWarnings(chainId) };
    this.#signers =
      keys &&
      new Map(keys.map((key) => privateKeyToAccount(key)).map((account) => [lowerAddress(account.address), account]));
    for (const pool of pools) {
      const wallets = pool.map((key) => lowerAddress(privateKeyToAccount(key).address));
      if (wallets.length > 1) this.#pools.set(wallets[0]!, new WalletPool(wallets));
    }
  }

  /** Transactions are signed here with the given keys (nothing is impersonated or funded). */
  get signs(): boolean {
    return this.#signers !== undefined;
  }

  /** The addresses of the given keys. */
  signers(): Address[] {
    return [...(this.#signers?.keys() ?? [])];
  }

  /** The wallets that sign for `wallet`: its pool, its own first (itself alone when it has none). */
  poolOf(wallet: Address): readonly Address[] {
    return this.#pools.get(lowerAddress(wallet))?.wallets ?? [lowerAddress(wallet)];
  }

  /** Reads every signer's next nonce in one round trip (otherwise each is read on its first send). */
  async primeNonces(): Promise<void> {
    const addresses = this.signers();
    if (addresses.length === 0) return;
    const outcomes = await this.#rpc.batch(
      addresses.map((address) => ({ method: "eth_getTransactionCount", params: [address, "pending"] })),
    );
    outcomes.forEach(
      (outcome, i) => "result" in outcome && this.#queues.next.set(addresses[i]!, Number(outcome.result)),
    );
  }

  /** The chain may have gone back (a revert or a reset through the simulator): every nonce is asked again. */
  forgetNonces(): void {
    this.#queues.forget();
  }

  /**
   * Sends `tx`, in a block stamped `at` when given, and answers its hash. A timed write answers
   * once mined (the next one's time is for the next block), unless `pending`; a reverted one throws what it
   * reverted with. Receipts are kept for `takeReceipt`.
   */
  async send(tx: NodeTx, at?: number, { pooled = false, pending = false }: SendOptions = {}): Promise<Hex> {
    const stamp: RpcCall[] = at === undefined ? [] : [{ method: "evm_setNextBlockTimestamp", params: [at] }];
    // Only a timed write waits in the send: an API write on a node with a block time answers at once (its caller waits,
    // with a timeout).
    const sync = at !== undefined && this.#sendsSync && !pending;
    for (let tries = 1; ; tries += 1) {
      const sent = this.#signers
        ? await this.#sendSigned(tx, stamp, sync, pooled)
        : await this.#sendImpersonated(tx, stamp, sync);
      const { hash, from } = sent;
      if (pending) return hash;
      // An automining node mines within milliseconds; one with a block time leaves an API write to its caller's wait.
      const timed = at !== undefined;
      const mined =
        sent.receipt ?? (await minedReceipt(this.#rpc, sent, timed ? MINED_WITHIN_MS : UNTIMED_WAIT_MS, timed));
      if (mined === "taken") {
        // The node took it, then mined another writer's transaction with its nonce (anvil takes a transaction whose
        // nonce is being mined for another): it is gone for good, and sent again with a fresh nonce.
        this.#lost(tx, pooled, from);
        if (tries < NONCE_ATTEMPTS) continue;
        const why = `its nonce was taken by another writer ${tries} times in a row`;
        throw transactionRefused(this.#chainId, from, why, true);
      }
      if (!mined) {
        this.#keep(this.#unmined, hash, { tx, pooled, sent });
        return hash;
      }
      if (mined.status !== "0x1") {
        // What it reverted with: the same call against the state before its block.
        const { gas: _gas, ...call }: NodeTx = { ...tx, from };
        const before = `0x${(BigInt(mined.blockNumber) - 1n).toString(16)}`;
        throw await this.#rpc.request("eth_call", [call, before]).then(
          () => new Error(`transaction ${mined.transactionHash} reverted`),
          (error: unknown) => error as Error,
        );
      }
      this.#keep(this.#receipts, hash, mined);
      return hash;
    }
  }

  /**
   * Waits until `hash`, a write this writer sent and left to its caller's wait unmined, is mined: sent again (on
   * another wallet of its pool, or with a fresh nonce) whenever another writer's transaction takes its nonce. Answers the
   * receipt of what was mined, reverted or not (the last one sent: see `sentAs`). Throws viem's WaitForTransactionReceiptTimeoutError
   * after `timeoutMs`; undefined where it does not watch `hash`.
   */
  async mined(hash: Hex, timeoutMs = MINED_WITHIN_MS): Promise<RawReceipt | undefined> {
    if (!this.#unmined.has(hash)) return undefined;
    const deadline = Date.now() + timeoutMs;
    let looked: { hash: Hex; look: ReturnType<typeof watching> } | undefined;
    for (let wait = 1; ; wait = Math.min(wait * 2, 250)) {
      const last = this.sentAs(hash);
      const kept = this.#receipts.get(last);
      if (kept) return (this.#receipts.delete(last), kept);
      const watched = this.#unmined.get(last);
      if (!watched) throw new WaitForTransactionReceiptTimeoutError({ hash: last });
      if (looked?.hash !== last) looked = { hash: last, look: watching(this.#rpc, watched.sent) };
      const now = await looked.look();
      if (now === "taken") {
        this.#unmined.delete(last);
        this.#lost(watched.tx, watched.pooled, watched.sent.from);
        this.#keep(this.#resentAs, last, await this.send(watched.tx, undefined, { pooled: watched.pooled }));
        continue;
      }
      if (now) return (this.#unmined.delete(last), now);
      if (Date.now() > deadline) throw new WaitForTransactionReceiptTimeoutError({ hash: last });
      await new Promise((resolve) => setTimeout(resolve, wait));
    }
  }

  /** The hash `hash` was last sent again as (another writer took its nonce), or itself. */
  sentAs(hash: Hex): Hex {
    let last = hash;
    for (let next = this.#resentAs.get(last); next; next = this.#resentAs.get(last)) last = next;
    return last;
  }

  /** Keeps `value` under `hash` in one of the writer's bounded memories. */
  #keep<T>(kept: Map<Hex, T>, hash: Hex, value: T): void {
    if (kept.size >= RECEIPTS_KEPT) kept.delete(kept.keys().next().value!);
    kept.set(hash, value);
  }

  /** A transaction from `from` was lost to another writer's: its nonce is asked again, and (pooled) the wallet left. */
  #lost(tx: NodeTx, pooled: boolean, from: Address): void {
    this.#queues.forget(from);
    if (pooled) this.#pools.get(lowerAddress(tx.from))?.sharedWith(from);
  }

  /** The receipt of a transaction this writer sent and saw mined, once. */
  takeReceipt(hash: Hex): RawReceipt | undefined {
    const receipt = this.#receipts.get(hash);
    this.#receipts.delete(hash);
    return receipt;
  }

  /** Sends as the wallet (the node impersonates it) until the node takes it: a nonce another writer took is tried again. */
  async #sendImpersonated(tx: NodeTx, stamp: RpcCall[], sync: boolean): Promise<Sent> {
    const from = lowerAddress(tx.from);
    let impersonatedAgain = false;
    for (let tries = 1; ; tries += 1) {
      const outcome = await this.#queues.inTurn(from, () =>
        sendCountedOnce(this.#sending, impersonated, { ...tx, from }, stamp, sync),
      );
      if ("sent" in outcome) return outcome.sent;
      if (!impersonatedAgain && NOT_IMPERSONATED.test(outcome.error.message)) {
        // A node restarted with its state keeps balances but forgets whom it impersonated.
        await this.#rpc.request("hardhat_impersonateAccount", [tx.from]);
        impersonatedAgain = true;
        continue;
      }
      await afterRefusal(outcome.error, this.#chainId, from, tries);
    }
  }

  /**
   * Signs and sends from the sender, or (pooled) from the wallet of its pool this process hands out, until the node
   * takes it: a nonce another writer took is tried again, on another wallet of the pool when there is one (the one
   * that clashed is left to the other writer for a while); a wallet that cannot pay is left out while another can.
   */
  async #sendSigned(tx: NodeTx, stamp: RpcCall[], sync: boolean, pooled: boolean): Promise<Sent> {
    const pool = pooled && stamp.length === 0 ? this.#pools.get(lowerAddress(tx.from)) : undefined;
    /** The pool's wallets this send found without gas, and the one it tries next for that. */
    const dry = new Set<Address>();
    let next: Address | undefined;
    for (let tries = 1; ; tries += 1) {
      const from = next ?? (pool ? pool.pick((wallet) => this.#queues.waiting(wallet)) : lowerAddress(tx.from));
      next = undefined;
      const account = this.#signers!.get(from);
      if (!account) throw new Error(`chain ${this.#chainId}: no key for ${from}; add it to the keys file (--keys)`);
      const outcome = await this.#queues.inTurn(from, () =>
        sendCountedOnce(this.#sending, signedBy(account, this.#chainId), { ...tx, from }, stamp, sync),
      );
      if ("sent" in outcome) {
        if (outcome.shared) pool?.sharedWith(from);
        return outcome.sent;
      }
      if (pool && UNFUNDED.test(outcome.error.message)) {
        pool.unfunded(from);
        dry.add(from);
        // Every wallet of the pool is tried (those not known to be dry first) before the write is refused for gas.
        const known = new Set(pool.unfundedNow());
        const left = pool.wallets.filter((wallet) => !dry.has(wallet));
        next = left.find((wallet) => !known.has(wallet)) ?? left[0];
        if (!next) throw walletUnfunded(this.#chainId, pool.wallets, outcome.error.message);
        continue;
      }
      const clash = NONCE_CLASH.test(outcome.error.message);
      if (pool && clash && tries < NONCE_ATTEMPTS) {
        pool.sharedWith(from);
        // Every wallet tried: the others' too are busy with other writers, so wait a moment as a lone wallet would.
        if (tries >= pool.wallets.length) await clashPause(tries);
        continue;
      }
      await afterRefusal(outcome.error, this.#chainId, from, tries);
    }
  }
}
