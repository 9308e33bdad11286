import type { Address } from "viem";
import type { Chain } from "./network.ts";

/** A project contract at `address`, with `sender` signing its writes. */
export async function contractAs<Name extends "Collection" | "CollectionFactory" | "Marketplace" | "TestStablecoin">(
  chain: Chain,
  name: Name,
  address: Address,
  sender: Address,
) {
  return chain.viem.getContractAt(name, address, { client: { public: chain.publicClient, wallet: await chain.wallet(sender) } });
}
