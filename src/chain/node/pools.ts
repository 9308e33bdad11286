import type { Address } from "viem";
import { lowerAddress } from "../../core/formats.ts";
import type { NodeLink } from "./link.ts";
import { gasOf, type WalletGas } from "./wallet-gas.ts";

// A developer wallet's pool as the rest of the simulator sees it: who signs for it, and what each holds.

/**
 * The wallets that sign for `wallet` on a chain: its pool on a node whose keys file gives it one (its own first), else
 * itself. Granting or revoking the wallet's role is done for all of them.
 */
export function poolOf(chain: { node?: NodeLink | undefined }, wallet: Address): readonly Address[] {
  return chain.node?.writer.poolOf(wallet) ?? [lowerAddress(wallet)];
}

/** A developer wallet that signs on a node with its pool (itself alone without one), each wallet with its gas. */
export interface PoolGas {
  wallet: Address;
  wallets: WalletGas[];
}

/** How each developer wallet's pool stands for gas on a node where the simulator signs (none where it does not). */
export async function poolsGas(node: NodeLink, developerWallets: readonly Address[]): Promise<PoolGas[]> {
  if (!node.writer.signs) return [];
  const pools = developerWallets.map((wallet) => ({ wallet, pool: node.writer.poolOf(wallet) }));
  const gas = await gasOf(
    node.rpc,
    pools.flatMap(({ pool }) => pool),
  );
  let next = 0;
  return pools.map(({ wallet, pool }) => ({ wallet, wallets: pool.map(() => gas[next++]!) }));
}
