import { toHex, type Hex } from "viem";
import type { RequestProvider } from "./block-batcher.ts";

/** An id no snapshot has: an evm_revert to an id never given answers false, as the chain does. */
const NONE = "0xffffffffffffffff";

/**
 * A chain's snapshots (evm_snapshot, evm_revert): which ids evm_revert went back to, in order (each
 * dropped every snapshot from its id on), so whether the chain still holds one; and the ids a caller
 * of the JSON-RPC port sees: its own, counted from 1, for the chain's. The chain's ids also count the
 * snapshots the simulator takes for itself (one before each recorded change, to take it back), which
 * a journal's replay does not take, so only ids of the caller's own are the same after a restart.
 */
export class NodeSnapshots {
  readonly #chainIds = new Map<bigint, Hex>();
  #count = 0n;
  readonly #revertedTo: bigint[] = [];

  /** Any call; from a caller of the port (`caller`), evm_snapshot answers the caller's id and evm_revert takes one. */
  async call(provider: RequestProvider, method: string, params: unknown[], caller: boolean): Promise<unknown> {
    if (caller && method === "evm_snapshot") return this.#issue((await provider.request({ method, params })) as Hex);
    if (method !== "evm_revert") return provider.request({ method, params });
    const chainId = caller ? this.#chainIdOf(params[0]) : (params[0] as Hex);
    const result = await provider.request({ method, params: [chainId] });
    if (result !== true) return result;
    if (caller) this.#dropFrom(params[0]);
    this.reverted(chainId);
    return result;
  }

  /** The chain went back to its snapshot `id`. */
  reverted(id: Hex): void {
    this.#revertedTo.push(BigInt(id));
  }

  /** A mark to give `holds` with a snapshot taken now. */
  get revertCount(): number {
    return this.#revertedTo.length;
  }

  /**
   * Whether the chain still holds snapshot `id`, taken at `mark`: no evm_revert since (ours or from outside) went back
   * to it or before it.
   */
  holds(id: Hex, mark: number): boolean {
    return this.#revertedTo.slice(mark).every((revertedTo) => revertedTo > BigInt(id));
  }

  /** The caller's id for a snapshot the chain took as `chainId`. */
  #issue(chainId: Hex): Hex {
    this.#count += 1n;
    this.#chainIds.set(this.#count, chainId);
    return toHex(this.#count);
  }

  /** The chain's id of the caller's snapshot `id` (one it never took: an id the chain has not either). */
  #chainIdOf(id: unknown): Hex {
    try {
      return this.#chainIds.get(BigInt(id as string)) ?? NONE;
    } catch {
      return NONE;
    }
  }

  /** The chain went back to the caller's snapshot `id`: it and every later one are gone (as the chain drops them). */
  #dropFrom(id: unknown): void {
    const from = BigInt(id as string);
    for (const key of [...this.#chainIds.keys()]) if (key >= from) this.#chainIds.delete(key);
  }
}
