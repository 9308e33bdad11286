import { formatEther } from "viem";
import { poolsGas } from "../chain/node/pools.ts";
import type { StateResponse } from "../schemas/state.ts";
import type { WorldParts } from "./world-editing.ts";

/** How much each wallet that signs an API key's writes holds, on every node where the simulator signs (`--keys`). */
export async function walletGas({
  chains,
  accounts,
}: Pick<WorldParts, "chains" | "accounts">): Promise<StateResponse["gas"]> {
  const keys = accounts.list();
  const found = await Promise.all(
    chains.all().map(async (chain) => {
      const node = chain.node;
      if (!node?.writer.signs) return [];
      const pools = await poolsGas(
        node,
        keys.map((account) => account.wallet),
      );
      return pools.map(({ wallet, wallets }, i) => ({
        chainId: chain.chainId,
        account: keys[i]!.name,
        wallet,
        wallets: wallets.map(({ address, balance, level }) => ({
          address,
          ...(balance === undefined ? {} : { balance: formatEther(balance) }),
          level,
        })),
      }));
    }),
  );
  const gas = found.flat();
  return gas.length > 0 ? gas : undefined;
}
