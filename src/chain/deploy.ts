import type { Address } from "viem";
import type { Chain } from "./network.ts";
import { lowerAddress } from "./address.ts";

/** The contracts every chain starts with; collections are deployed later through the factory. */
export interface CoreContracts {
  factory: Address;
  marketplace: Address;
  stablecoin: Address;
}

export async function deployCore(chain: Chain, deployer: Address): Promise<CoreContracts> {
  const client = { wallet: await chain.wallet(deployer) };
  const factory = await chain.viem.deployContract("CollectionFactory", [], { client });
  const marketplace = await chain.viem.deployContract("Marketplace", [], { client });
  const stablecoin = await chain.viem.deployContract("TestStablecoin", [], { client });
  return {
    factory: lowerAddress(factory.address),
    marketplace: lowerAddress(marketplace.address),
    stablecoin: lowerAddress(stablecoin.address),
  };
}
