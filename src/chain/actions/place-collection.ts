import { encodeDeployData, encodeFunctionData, type Address, type Hex } from "viem";
import type { SimChain, WriteOptions } from "../sim-chain.ts";
import { artifact } from "../../core/abi.ts";
import { pooledMinters, type CreateCollectionParams } from "./create-collection.ts";

export interface PlaceCollectionParams extends CreateCollectionParams {
  /** Where the collection must live (a live collection's address, in an imported world). */
  address: Address;
}

/**
 * Creates a collection at an address the factory would not choose: the chain places the Collection's creation code
 * there and it is called once, so its own constructor sets it up in place (its storage is what a deployment writes,
 * whatever the compiler lays out); then its runtime code replaces the creation code, and its owner announces it to the
 * factory, which emits CollectionCreated for it as for its own. Answers the announcement's hash. An address that holds
 * code or has sent a transaction is refused: it is some other account of this chain.
 */
export async function placeCollection(chain: SimChain, p: PlaceCollectionParams, options?: WriteOptions): Promise<Hex> {
  const [code, nonce] = await Promise.all([
    chain.request("eth_getCode", [p.address, "latest"]),
    chain.request("eth_getTransactionCount", [p.address, "latest"]),
  ]);
  if (code !== "0x" || BigInt(nonce as Hex) !== 0n)
    throw new Error(`${p.address} is taken on chain ${chain.chainId}: a collection cannot be placed there`);
  const { abi, bytecode, deployedBytecode } = artifact("Collection");
  const setUp = encodeDeployData({ abi, bytecode, args: [p.name, p.uri, p.owner, pooledMinters(chain, p)] });
  await chain.request("hardhat_setCode", [p.address, setUp]);
  await chain.write(p.from, { to: p.address, data: "0x" }, {}, options);
  await chain.request("hardhat_setCode", [p.address, deployedBytecode]);
  const data = encodeFunctionData({
    abi: chain.abis.factory,
    functionName: "announceCollection",
    args: [p.address, p.metadata],
  });
  return chain.write(p.owner, { to: chain.contracts.factory, data }, {}, options);
}
