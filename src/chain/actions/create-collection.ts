import { parseEventLogs, type Address } from "viem";
import { contractAs } from "../contracts.ts";
import type { Chain } from "../network.ts";
import type { CoreContracts } from "../deploy.ts";

export interface NewCollection {
  name: string;
  uri: string;
  owner: Address;
  minters: Address[];
}

/** Deploys a collection through the factory and answers its address. */
export async function createCollection(chain: Chain, contracts: CoreContracts, sender: Address, collection: NewCollection): Promise<Address> {
  const factory = await contractAs(chain, "CollectionFactory", contracts.factory, sender);
  const hash = await factory.write.createCollection([collection.name, collection.uri, collection.owner, collection.minters]);
  const receipt = await chain.publicClient.waitForTransactionReceipt({ hash });
  const [created] = parseEventLogs({ abi: factory.abi, eventName: "CollectionCreated", logs: receipt.logs });
  return created!.args.collection.toLowerCase() as Address;
}
