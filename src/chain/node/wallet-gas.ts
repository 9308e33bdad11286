import { formatEther, type Address, type Hex } from "viem";
import { apiError, ERRORS, type ApiError } from "../../core/errors.ts";
import { FIXED_GAS, MAX_FEE_PER_GAS } from "../contract-call.ts";
import type { NodeRpc } from "./rpc.ts";

/**
 * What one transaction at the simulator's gas limit and fee cap must be able to pay (the node checks it before taking
 * the transaction): every wallet that sends must hold it at start.
 */
export const MIN_BALANCE = FIXED_GAS * MAX_FEE_PER_GAS;

/** Below this a wallet is low: warned about before it runs dry (under MIN_BALANCE, what a write may need). */
export const LOW_BALANCE = 2n * MIN_BALANCE;

/** How one wallet stands for gas on a node: what it holds (undefined: the node did not say), low, or dry. */
export interface WalletGas {
  address: Address;
  balance: bigint | undefined;
  level: "ok" | "low" | "dry" | "unknown";
}

/**
 * Every wallet a write could be signed with cannot pay for its gas (the node refused it for funds): 503 naming the
 * wallets to fund.
 */
export function walletUnfunded(chainId: number, wallets: readonly Address[], nodeSaid: string): ApiError {
  const which = wallets.length === 1 ? `wallet ${wallets[0]} cannot` : `none of the wallets ${wallets.join(", ")} can`;
  const line =
    `chain ${chainId}: ${which} pay for the transaction's gas (${nodeSaid}); fund ${wallets.length === 1 ? "it" : "them"} ` +
    `on that node (each should hold at least ${formatEther(LOW_BALANCE)} of the native coin)`;
  return apiError(ERRORS.WALLET_UNFUNDED, { chainId, wallets: wallets.join(", ") }, { errors: [line] });
}

/** Warns once, on stderr, when a wallet that signs on the chain runs low on gas (again once funded and low again). */
export function lowGasWarnings(chainId: number): (wallet: Address, balance: bigint) => void {
  const warned = new Set<Address>();
  return (wallet, balance) => {
    if (gasLevel(balance) === "ok") return void warned.delete(wallet);
    if (warned.has(wallet)) return;
    warned.add(wallet);
    console.warn(
      `chain ${chainId}: wallet ${wallet} holds ${formatEther(balance)} of the native coin, low for gas; ` +
        `fund it before it runs dry`,
    );
  };
}

export function gasLevel(balance: bigint | undefined): WalletGas["level"] {
  if (balance === undefined) return "unknown";
  return balance < MIN_BALANCE ? "dry" : balance < LOW_BALANCE ? "low" : "ok";
}

/** What each wallet holds on the node, in one round trip (unknown where the node does not say). */
export async function gasOf(rpc: NodeRpc, wallets: readonly Address[]): Promise<WalletGas[]> {
  if (wallets.length === 0) return [];
  const calls = wallets.map((address) => ({ method: "eth_getBalance", params: [address, "latest"] }));
  const outcomes = await rpc.batch(calls).catch(() => []);
  return wallets.map((address, i) => {
    const outcome = outcomes[i];
    const balance = outcome && "result" in outcome ? BigInt(outcome.result as Hex) : undefined;
    return { address, balance, level: gasLevel(balance) };
  });
}
