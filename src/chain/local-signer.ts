import { keccak256, type Address, type Hex } from "viem";
import { privateKeyToAccount, type PrivateKeyAccount } from "viem/accounts";
import type { RequestProvider, SendableTx } from "./block-batcher.ts";

/**
 * A writer that must learn its transaction's hash before any block holds it (what it stores under
 * the hash then exists before the block does): sent alone, the transaction is signed here with
 * `key` and the hash told before it is sent; inside a shared block, told once the chain has it in
 * its pool and before that block is mined (see `HashTeller`).
 */
export interface Presigner {
  /** The sender's private key. */
  key: Hex;
  beforeSend(hash: Hex): void;
}

/** Signs a transaction and answers it raw, ready for eth_sendRawTransaction. */
export type Sign = (tx: SendableTx) => Promise<Hex>;

const accounts = new Map<Hex, PrivateKeyAccount>();

/**
 * Signs a chain's transactions in the simulator rather than in the chain, where that matters:
 * a writer that must know the hash before sending (the mint stores its metadata under it), and
 * accounts the chain only impersonates (API keys made at run time), whose impersonated hashes a
 * signed transaction would not reproduce: signed here every time, a journal replay gives the
 * same hashes. A transaction is signed as the chain signs for eth_sendTransaction (EIP-1559, the
 * sender's next nonce counting the pool, the same fields), so the hash is the same either way.
 */
export class LocalSigner {
  readonly #provider: RequestProvider;
  readonly #chainId: number;
  #keyOf: ((address: Address) => Hex | undefined) | undefined;
  #held: Promise<Set<string>> | undefined;

  constructor(provider: RequestProvider, chainId: number) {
    this.#provider = provider;
    this.#chainId = chainId;
  }

  /** Where to find the keys of the simulator's own accounts (its API keys' developer wallets). */
  knowKeys(keyOf: (address: Address) => Hex | undefined): void {
    this.#keyOf = keyOf;
  }

  /** How a write from `from` is signed here, or undefined: the chain signs it. Call `Sign` where sends are one at a time, so the nonce holds. */
  async signerFor(from: Address, presign?: Presigner): Promise<Sign | undefined> {
    const key = presign?.key ?? (await this.#impersonatedKey(from));
    return key && ((tx) => this.#signed(tx, key, presign?.beforeSend));
  }

  async #impersonatedKey(from: Address): Promise<Hex | undefined> {
    if (!this.#keyOf) return undefined;
    this.#held ??= this.#provider
      .request({ method: "eth_accounts" })
      .then((held) => new Set((held as string[]).map((address) => address.toLowerCase())));
    return (await this.#held).has(from.toLowerCase()) ? undefined : this.#keyOf(from.toLowerCase() as Address);
  }

  async #signed(tx: SendableTx, key: Hex, beforeSend: ((hash: Hex) => void) | undefined): Promise<Hex> {
    let account = accounts.get(key);
    if (!account) accounts.set(key, (account = privateKeyToAccount(key)));
    const nonce = Number(
      await this.#provider.request({ method: "eth_getTransactionCount", params: [tx.from, "pending"] }),
    );
    const raw = await account.signTransaction({
      type: "eip1559",
      chainId: this.#chainId,
      nonce,
      to: tx.to as Hex,
      data: tx.data as Hex,
      gas: BigInt(tx.gas),
      maxFeePerGas: BigInt(tx.maxFeePerGas!),
      maxPriorityFeePerGas: BigInt(tx.maxPriorityFeePerGas!),
      ...(tx.value ? { value: BigInt(tx.value) } : {}),
    });
    beforeSend?.(keccak256(raw));
    return raw;
  }
}
