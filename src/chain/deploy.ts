import type { Address } from "viem";
import type { Chain } from "./network.ts";
import { lowerAddress } from "./address.ts";

/** The contracts every chain starts with; collections are deployed later through the factory. */
export interface CoreContracts {
  factory: Address;
  marketplace: Address;
  stablecoin: Address;
}

/**
 * Deploys the core contracts, each in a block one second after the one before: times fixed
 * by genesis rather than by how long the start took, so every block hash after them is the
 * same on every start (a journal replays onto the very same chain).
 */
export async function deployCore(chain: Chain, deployer: Address): Promise<CoreContracts> {
  const client = { wallet: await chain.wallet(deployer) };
  let time = Number((await chain.publicClient.getBlock({ blockTag: "latest" })).timestamp);
  const deploy = async (name: string) => {
    await chain.connection.provider.request({ method: "evm_setNextBlockTimestamp", params: [++time] });
    return chain.viem.deployContract(name as "CollectionFactory", [], { client });
  };
  const factory = await deploy("CollectionFactory");
  const marketplace = await deploy("Marketplace");
  const stablecoin = await deploy("TestStablecoin");
  return {
    factory: lowerAddress(factory.address),
    marketplace: lowerAddress(marketplace.address),
    stablecoin: lowerAddress(stablecoin.address),
  };
}
