import { encodeFunctionData, parseEventLogs, type Address, type Hex, type TransactionReceipt } from "viem";
import type { SimChain, WriteOptions } from "../sim-chain.ts";
import { lowerAddress } from "../../core/formats.ts";

export interface CreateCollectionParams {
  from: Address;
  name: string;
  uri: string;
  owner: Address;
  minters: Address[];
  /** The collection's description as it goes on chain (src/metadata/codec.ts), emitted in CollectionCreated. */
  metadata: Hex;
}

/** Deploys a collection through the factory (anyone may). */
export function createCollection(chain: SimChain, p: CreateCollectionParams, options?: WriteOptions): Promise<Hex> {
  const data = encodeFunctionData({
    abi: chain.abis.factory,
    functionName: "createCollection",
    args: [p.name, p.uri, p.owner, p.minters, p.metadata],
  });
  return chain.write(p.from, { to: chain.contracts.factory, data }, {}, options);
}

/** The address of the collection a createCollection transaction deployed (lower case). */
export function createdCollection(chain: SimChain, receipt: TransactionReceipt): Address {
  const [created] = parseEventLogs({ abi: chain.abis.factory, eventName: "CollectionCreated", logs: receipt.logs });
  if (!created) throw new Error(`transaction ${receipt.transactionHash} created no collection`);
  return lowerAddress(created.args.collection);
}
