import { readFileSync } from "node:fs";
import type { ArtifactMap } from "hardhat/types/artifacts";
import type { Hex } from "viem";

// The compiled contracts, read straight from Hardhat's artifact files: no Hardhat runtime is
// needed to decode logs, and the chains are started without the build info (Hardhat would
// otherwise parse ~4 MB of compiler output into a contract decoder the simulator never uses).
const ARTIFACTS = new URL("../../artifacts/contracts/", import.meta.url);

type ContractName = "Collection" | "CollectionFactory" | "Marketplace" | "TestStablecoin";

interface Artifact<Name extends ContractName> {
  abi: ArtifactMap[Name]["abi"];
  bytecode: Hex;
  /** The runtime code a deployment leaves (a placed collection's, src/chain/actions/place-collection.ts). */
  deployedBytecode: Hex;
}

const read = new Map<ContractName, Artifact<ContractName>>();

/** A contract's ABI, creation bytecode and runtime code, as compiled into artifacts/. */
export function artifact<Name extends ContractName>(name: Name): Artifact<Name> {
  if (!read.has(name)) read.set(name, JSON.parse(readFileSync(new URL(`${name}.sol/${name}.json`, ARTIFACTS), "utf8")));
  return read.get(name) as Artifact<Name>;
}

/** ABIs of the project's contracts (typed by Hardhat's generated declarations). */
export function loadAbis() {
  return {
    collection: artifact("Collection").abi,
    factory: artifact("CollectionFactory").abi,
    marketplace: artifact("Marketplace").abi,
    stablecoin: artifact("TestStablecoin").abi,
  };
}

export type Abis = ReturnType<typeof loadAbis>;
