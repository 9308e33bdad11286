import { toHex, type Address, type Hex } from "viem";
import type { SimChain } from "../sim-chain.ts";

// What the simulator asks of the node itself rather than of a contract: mining at a time,
// snapshots, and accounts it may send from without a key. These calls are not recorded one by
// one: the control action that makes them is (src/control/).

const quiet = { record: false };

/** The head block's number and time. */
export async function headOf(chain: SimChain): Promise<{ number: bigint; timestamp: bigint }> {
  const head = await chain.publicClient.getBlock({ blockTag: "latest", cacheTime: 0 } as never);
  return { number: head.number, timestamp: head.timestamp };
}

/** Mines one empty block at unix time `at`; later blocks follow on from it. */
export async function mineAt(chain: SimChain, at: number): Promise<void> {
  await chain.request("evm_mine", [at], quiet);
}

/** The node's snapshot of the chain's state; `revertChain` returns to it (once: take another to return again). */
export async function snapshotChain(chain: SimChain): Promise<Hex> {
  return (await chain.request("evm_snapshot", [], quiet)) as Hex;
}

export async function revertChain(chain: SimChain, id: Hex): Promise<boolean> {
  return (await chain.request("evm_revert", [id], quiet)) as boolean;
}

/** Lets the simulator send from `address` without its key, with `balance` wei to pay for gas. */
export async function openAccount(chain: SimChain, address: Address, balance: bigint): Promise<void> {
  await chain.request("hardhat_impersonateAccount", [address], quiet);
  await chain.request("hardhat_setBalance", [address, toHex(balance)], quiet);
}

/** The accounts the node holds keys for. */
export async function nodeAccounts(chain: SimChain): Promise<Address[]> {
  return ((await chain.request("eth_accounts", [], quiet)) as Address[]).map((address) => address.toLowerCase() as Address);
}
