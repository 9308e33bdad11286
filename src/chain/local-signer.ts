import type { Address, Hex } from "viem";
import { privateKeyToAccount, type PrivateKeyAccount } from "viem/accounts";
import type { RequestProvider, SendableTx } from "./block-batcher.ts";

/** Signs a transaction and answers it raw, ready for eth_sendRawTransaction. */
export type Sign = (tx: SendableTx) => Promise<Hex>;

const accounts = new Map<Hex, PrivateKeyAccount>();

/**
 * Signs, in the simulator, the transactions of accounts the chain only impersonates (API keys made
 * at run time): the chain's impersonated hashes are not reproducible, a signed transaction's are, so a
 * journal replay gives the same hashes. A transaction is signed as the chain signs for
 * eth_sendTransaction (EIP-1559, the sender's next nonce counting the pool, the same fields).
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

  /**
   * How a write from `from` is signed here, or undefined: the chain signs it. Call `Sign` where sends are one at a
   * time, so the nonce holds.
   */
  async signerFor(from: Address): Promise<Sign | undefined> {
    const key = await this.#impersonatedKey(from);
    return key && ((tx) => this.#signed(tx, key));
  }

  /**
   * How `tx` is sent in process: signed here if the chain only impersonates its sender, in a block at `at` if given.
   */
  async senderOf(tx: SendableTx, at: number | undefined): Promise<() => Promise<Hex>> {
    const sign = await this.signerFor(tx.from as Address);
    const provider = this.#provider;
    return async () => {
      if (at !== undefined) await provider.request({ method: "evm_setNextBlockTimestamp", params: [at] });
      return (await (sign
        ? provider.request({ method: "eth_sendRawTransaction", params: [await sign(tx)] })
        : provider.request({ method: "eth_sendTransaction", params: [tx] }))) as Hex;
    };
  }

  async #impersonatedKey(from: Address): Promise<Hex | undefined> {
    if (!this.#keyOf) return undefined;
    this.#held ??= this.#provider
      .request({ method: "eth_accounts" })
      .then((held) => new Set((held as string[]).map((address) => address.toLowerCase())));
    return (await this.#held).has(from.toLowerCase()) ? undefined : this.#keyOf(from.toLowerCase() as Address);
  }

  async #signed(tx: SendableTx, key: Hex): Promise<Hex> {
    let account = accounts.get(key);
    if (!account) accounts.set(key, (account = privateKeyToAccount(key)));
    const nonce = Number(
      await this.#provider.request({ method: "eth_getTransactionCount", params: [tx.from, "pending"] }),
    );
    return account.signTransaction({
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
  }
}
