import { encodeDeployData, encodeFunctionData, type Address, type Hex } from "viem";
import { placeCode } from "../placed-code.ts";
import type { SimChain, WriteOptions } from "../sim-chain.ts";
import { artifact } from "../../core/abi.ts";
import { pooledMinters, type CreateCollectionParams } from "./create-collection.ts";

export interface PlaceCollectionParams extends CreateCollectionParams {
  /** Where the collection must live (a live collection's address, in an imported world). */
  address: Address;
}

/**
 * Creates a collection at an address the factory would not choose: the Collection's code placed there as its own
 * constructor would write it (`placeCode`), then its owner announces it to the factory, which emits CollectionCreated
 * for it as for its own. Answers the announcement's hash. An address that holds code or has sent a transaction is
 * refused: it is some other account of this chain.
 */
export async function placeCollection(chain: SimChain, p: PlaceCollectionParams, options?: WriteOptions): Promise<Hex> {
  const { abi, bytecode, deployedBytecode } = artifact("Collection");
  const creation = encodeDeployData({ abi, bytecode, args: [p.name, p.uri, p.owner, pooledMinters(chain, p)] });
  const request = (method: string, params: unknown[]) => chain.request(method, params);
  await placeCode(request, chain.chainId, p.address, { creation, runtime: deployedBytecode }, "a collection");
  const args = [p.address, p.metadata] as const;
  const data = encodeFunctionData({ abi: chain.abis.factory, functionName: "announceCollection", args });
  return chain.write(p.owner, { to: chain.contracts.factory, data }, {}, options);
}
