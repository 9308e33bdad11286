import { formatEther } from "viem";
import { poolsGas } from "../chain/node/pools.ts";
import { LOW_BALANCE, MIN_BALANCE } from "../chain/node/wallet-gas.ts";
import type { SimChain } from "../chain/sim-chain.ts";
import { chainProfile, type ApiAccount } from "../core/config.ts";

/**
 * The banner's gas lines: on each node where the simulator signs (--keys), what each wallet that signs an API key's
 * writes holds (its pool's wallets too), and a warning for each one that is low or dry.
 */
export async function gasLines(chains: SimChain[], accounts: ApiAccount[]): Promise<string[]> {
  const lines: string[] = [];
  for (const chain of chains) {
    if (!chain.node?.writer.signs || accounts.length === 0) continue;
    const coin = chainProfile(chain.chainId).nativeSymbol;
    const pools = await poolsGas(
      chain.node,
      accounts.map((account) => account.wallet),
    );
    lines.push(
      "",
      `  Gas on chain ${chain.chainId} (each wallet that signs an API key's writes; low under ` +
        `${formatEther(LOW_BALANCE)} ${coin}, dry under ${formatEther(MIN_BALANCE)}):`,
    );
    pools.forEach(({ wallets }, i) => {
      wallets.forEach(({ address, balance, level }, j) => {
        const held = balance === undefined ? "(the node did not say)" : `${formatEther(balance)} ${coin}`;
        const warning =
          level === "dry"
            ? "  DRY: fund it (its writes answer 503 WALLET_UNFUNDED)"
            : level === "low"
              ? "  LOW: fund it before it runs dry"
              : "";
        lines.push(`    ${(j === 0 ? accounts[i]!.apiKey : "").padEnd(20)} ${address}  ${held}${warning}`);
      });
    });
  }
  return lines;
}
