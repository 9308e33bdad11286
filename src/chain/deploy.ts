import type { Address } from "viem";
import type { Chain } from "./network.ts";

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
    factory: lower(factory.address),
    marketplace: lower(marketplace.address),
    stablecoin: lower(stablecoin.address),
  };
}

function lower(address: Address): Address {
  return address.toLowerCase() as Address;
}
