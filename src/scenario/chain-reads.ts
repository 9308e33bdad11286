import type { Address } from "viem";
import type { SimChain } from "../chain/sim-chain.ts";
import { lowerAddress } from "../core/formats.ts";

// What a fragment applied to a running world asks the chain before it sends: the world may have
// moved on since it was loaded (mints, approvals, purchases), so nothing is assumed.

const ofCollection = (chain: SimChain, address: Address) => ({ address, abi: chain.abis.collection });
const ofMarketplace = (chain: SimChain) => ({ address: chain.contracts.marketplace, abi: chain.abis.marketplace });

/** How many token ids the collection has created (the next is one more). */
export function itemCount(chain: SimChain, collection: Address): Promise<bigint> {
  return chain.publicClient.readContract({ ...ofCollection(chain, collection), functionName: "itemCount" });
}

/** How many listings the marketplace has opened (the next id is one more). */
export function listingCount(chain: SimChain): Promise<bigint> {
  return chain.publicClient.readContract({ ...ofMarketplace(chain), functionName: "listingCount" });
}

/** Whether `owner` has let the marketplace take its tokens of the collection. */
export function approvedMarketplace(chain: SimChain, owner: Address, collection: Address): Promise<boolean> {
  const args = [owner, chain.contracts.marketplace] as const;
  return chain.publicClient.readContract({
    ...ofCollection(chain, collection),
    functionName: "isApprovedForAll",
    args,
  });
}

/** Whether `buyer` holds `amount` of the stablecoin and lets the marketplace take it. */
export async function canPayStablecoins(chain: SimChain, buyer: Address, amount: bigint): Promise<boolean> {
  const [{ stablecoin: address, marketplace }, abi] = [chain.contracts, chain.abis.stablecoin];
  const [balance, allowance] = await Promise.all([
    chain.publicClient.readContract({ address, abi, functionName: "balanceOf", args: [buyer] }),
    chain.publicClient.readContract({ address, abi, functionName: "allowance", args: [buyer, marketplace] }),
  ]);
  return balance >= amount && allowance >= amount;
}

/** Who created a token: a minter may mint more of any item, its creator of its own. */
export async function creatorOf(chain: SimChain, collection: Address, tokenId: bigint): Promise<Address> {
  const read = { ...ofCollection(chain, collection), functionName: "creator", args: [tokenId] } as const;
  return lowerAddress(await chain.publicClient.readContract(read));
}

/** A listing as the marketplace holds it (amount 0: closed). */
export async function marketListing(chain: SimChain, listingId: bigint) {
  const read = { ...ofMarketplace(chain), functionName: "listings", args: [listingId] } as const;
  const [seller, collection, tokenId, amount, price, currency] = await chain.publicClient.readContract(read);
  const [from, where, paid] = [seller, collection, currency].map(lowerAddress);
  return { seller: from!, collection: where!, tokenId, amount, price, currency: paid! };
}
