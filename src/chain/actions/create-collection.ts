import { encodeFunctionData, parseEventLogs, type Address, type Hex, type TransactionReceipt } from "viem";
import type { SimChain, WriteOptions } from "../sim-chain.ts";
import { lowerAddress } from "../../core/formats.ts";
import { poolOf } from "../node/pools.ts";

export interface CreateCollectionParams {
  from: Address;
  name: string;
  uri: string;
  owner: Address;
  minters: Address[];
  /** The collection's description as it goes on chain (src/metadata/codec.ts), emitted in CollectionCreated. */
  metadata: Hex;
}

/**
 * Deploys a collection through the factory (anyone may). The owner and each minter mint with their whole pool (a keys
 * file may give a wallet several): every wallet of those pools is made a minter.
 */
export function createCollection(chain: SimChain, p: CreateCollectionParams, options?: WriteOptions): Promise<Hex> {
  const args = [p.name, p.uri, p.owner, pooledMinters(chain, p), p.metadata] as const;
  const data = encodeFunctionData({ abi: chain.abis.factory, functionName: "createCollection", args });
  return chain.write(p.from, { to: chain.contracts.factory, data }, {}, options);
}

/** The minters a collection is created with: every wallet of the owner's and each minter's pool. */
export function pooledMinters(chain: SimChain, p: Pick<CreateCollectionParams, "owner" | "minters">): Address[] {
  const pooled = [...poolOf(chain, p.owner).slice(1), ...p.minters.flatMap((minter) => poolOf(chain, minter))];
  return pooled.length === p.minters.length ? p.minters : [...new Set(pooled)];
}

/** The address of the collection a createCollection transaction deployed (lower case). */
export function createdCollection(chain: SimChain, receipt: TransactionReceipt): Address {
  const [created] = parseEventLogs({ abi: chain.abis.factory, eventName: "CollectionCreated", logs: receipt.logs });
  if (!created) throw new Error(`transaction ${receipt.transactionHash} created no collection`);
  return lowerAddress(created.args.collection);
}
