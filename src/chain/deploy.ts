import { toHex, type Address, type Hex } from "viem";
import type { ChainFacts } from "../indexer/models.ts";
import { artifact } from "../core/abi.ts";
import { lowerAddress } from "../core/formats.ts";
import { currencyTable } from "./currencies.ts";
import { FEES } from "./contract-call.ts";
import type { Chain } from "./network.ts";
import { placeCode, type ChainRequest } from "./placed-code.ts";

/** The contracts every chain starts with; collections are deployed later through the factory. */
export interface CoreContracts {
  factory: Address;
  marketplace: Address;
  stablecoin: Address;
}

/** What an index of a chain with these contracts needs to know beside its logs. */
export function chainFacts(chainId: number, { factory, marketplace, stablecoin }: CoreContracts): ChainFacts {
  return { chainId, factory, marketplace, currencies: currencyTable(chainId, stablecoin) };
}

// Enough for the largest of the three (the factory carries the collection's code).
const DEPLOY_GAS = 10_000_000n;

/**
 * Deploys the core contracts, each in a block one second after the one before: times fixed
 * by genesis rather than by how long the start took, and fixed gas and fees, so every block
 * hash after them is the same on every start (a journal replays onto the very same chain).
 */
export async function deployCore(chain: Chain, deployer: Address): Promise<CoreContracts> {
  const request = (method: string, params: unknown[]) => chain.connection.provider.request({ method, params });
  let time = Number(
    BigInt(((await request("eth_getBlockByNumber", ["latest", false])) as { timestamp: Hex }).timestamp),
  );
  const deploy = async (name: "CollectionFactory" | "Marketplace" | "TestStablecoin") => {
    await request("evm_setNextBlockTimestamp", [++time]);
    const tx = { from: deployer, data: artifact(name).bytecode, gas: toHex(DEPLOY_GAS), ...FEES };
    const hash = (await request("eth_sendTransaction", [tx])) as Hex;
    const receipt = (await chain.publicClient.waitForTransactionReceipt({ hash, pollingInterval: 20 })) as {
      contractAddress?: Address | null;
    };
    if (!receipt.contractAddress) throw new Error(`deploying ${name} on chain ${chain.chainId} created no contract`);
    return lowerAddress(receipt.contractAddress);
  };
  return {
    factory: await deploy("CollectionFactory"),
    marketplace: await deploy("Marketplace"),
    stablecoin: await deploy("TestStablecoin"),
  };
}

/**
 * The core contracts with the marketplace at `address` (a live marketplace's, in an imported world: its escrow is then
 * the live one): its code placed there as its constructor writes it, no block taken. The one deployed with the others
 * stays where it is, unused, so that the chain's blocks are those of a chain without; an address that is the deployed
 * marketplace's already (the live service a simulator) keeps it.
 */
export async function placeMarketplace(
  request: ChainRequest,
  chainId: number,
  deployed: CoreContracts,
  address: Address,
): Promise<CoreContracts> {
  const marketplace = lowerAddress(address);
  if (marketplace === deployed.marketplace) return deployed;
  const { bytecode, deployedBytecode } = artifact("Marketplace");
  await placeCode(request, chainId, marketplace, { creation: bytecode, runtime: deployedBytecode }, "the marketplace");
  return { ...deployed, marketplace };
}
