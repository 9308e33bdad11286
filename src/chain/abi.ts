import { hre } from "./hre.ts";

/** ABIs of the project's contracts, read from Hardhat's compiled artifacts (typed by its generated declarations). */
export async function loadAbis() {
  const [collection, factory, marketplace, stablecoin] = await Promise.all([
    hre.artifacts.readArtifact("Collection"),
    hre.artifacts.readArtifact("CollectionFactory"),
    hre.artifacts.readArtifact("Marketplace"),
    hre.artifacts.readArtifact("TestStablecoin"),
  ]);
  return {
    collection: collection.abi,
    factory: factory.abi,
    marketplace: marketplace.abi,
    stablecoin: stablecoin.abi,
  };
}

export type Abis = Awaited<ReturnType<typeof loadAbis>>;
