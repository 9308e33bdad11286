import { toHex, type Address, type Hex } from "viem";
import { needCapability as need, nodeCannot } from "../node/capabilities.ts";
import type { SimChain } from "../sim-chain.ts";
import { quiet } from "../savepoint.ts";

// What the simulator asks of the node itself rather than of a contract: mining at a time,
// and accounts it may send from without a key (its snapshots: ../savepoint.ts). These calls are not recorded one by
// one: the control action that makes them is (src/control/).

/** The head block's number, hash and time. */
export async function headOf(chain: SimChain): Promise<{ number: bigint; hash: Hex; timestamp: bigint }> {
  const head = await chain.publicClient.getBlock({ blockTag: "latest", cacheTime: 0 } as never);
  return { number: head.number, hash: head.hash, timestamp: head.timestamp };
}

/** Mines one empty block at unix time `at`; later blocks follow on from it. */
export async function mineAt(chain: SimChain, at: number): Promise<void> {
  need(chain, "setsTime", "move its time", "evm_mine with a timestamp / evm_setNextBlockTimestamp");
  await chain.request("evm_mine", [at], quiet);
}

/** The accounts the node holds keys for. */
export async function nodeAccounts(chain: SimChain): Promise<Address[]> {
  return ((await chain.request("eth_accounts", [], quiet)) as Address[]).map(
    (address) => address.toLowerCase() as Address,
  );
}

/** Coin a wallet the simulator makes (a new API key's, a fragment's new account) gets on each chain, for gas. */
export const NEW_WALLET_BALANCE = 10n ** 22n;

/**
 * Lets the simulator send from a wallet it made, without its key, with coin for gas (NEW_WALLET_BALANCE), on each of
 * the chains.
 */
export async function fundWallet(chains: SimChain[], wallet: Address): Promise<void> {
  for (const chain of chains) {
    if (chain.node?.writer.signs)
      throw nodeCannot(
        chain.chainId,
        "open a new wallet",
        `on the node at ${chain.node.rpc.shown} the simulator signs with the given keys and funds nobody; give the ` +
          `account a key (--keys) instead`,
      );
    need(chain, "impersonates", "open a new wallet", "hardhat_impersonateAccount");
    need(chain, "setsBalance", "open a new wallet", "hardhat_setBalance");
    await chain.request("hardhat_impersonateAccount", [wallet], quiet);
    await chain.request("hardhat_setBalance", [wallet, toHex(NEW_WALLET_BALANCE)], quiet);
  }
}
