import { getContract, parseEventLogs, type Address } from "viem";
import { MAX_FEE_PER_GAS, MAX_PRIORITY_FEE_PER_GAS } from "../chain/fees.ts";
import { revertOf } from "../chain/revert.ts";
import type { ApiAccount } from "../config.ts";
import { ApiError, notFound } from "../errors.ts";
import { itemRef } from "../indexer/models.ts";
import type { MintBody, MintResponse, StoredItem } from "../schemas/mint.ts";
import type { SimChain, Simulator } from "../simulator.ts";

/**
 * Mints a new item as the account's developer wallet. The collection contract
 * decides whether the wallet may (its minter role); the call is simulated first
 * so a refused mint changes nothing on chain. Answers once the block is indexed.
 */
export async function mintItem(sim: Simulator, account: ApiAccount, body: MintBody): Promise<MintResponse> {
  const target = chainOf(sim, body.chainId);
  const collection = body.collectionAddress.toLowerCase() as Address;
  await target.indexer.sync();
  if (!target.indexer.models.collections.has(collection)) throw collectionNotFound(sim, collection, body.chainId);

  const item = resolveItem(body.item);
  const recipient = body.recipient.toLowerCase() as Address;
  if (!item.isStackable && item.initialSupply > item.maximumSupply) {
    throw new ApiError(422, "CONTRACT_RULE", "initialSupply is above maximumSupply", [
      `item.initialSupply (${item.initialSupply}) must not exceed item.maximumSupply (${item.maximumSupply})`,
    ]);
  }

  const hash = await sendChecked(account, async () => {
    const contract = getContract({
      address: collection,
      abi: sim.abis.collection,
      client: { public: target.chain.publicClient, wallet: await target.chain.wallet(account.wallet) },
    });
    const from = { account: account.wallet };
    // The estimate doubles as the dry run: a refused mint reverts here, before anything is sent.
    const send = (gas: bigint) => ({ ...from, gas: withMargin(gas), maxFeePerGas: MAX_FEE_PER_GAS, maxPriorityFeePerGas: MAX_PRIORITY_FEE_PER_GAS, chain: null });
    const royalty = BigInt(item.royaltyFee);
    if (item.isStackable) {
      const args = [recipient, BigInt(item.initialSupply), BigInt(item.maximumSupply), royalty] as const;
      return contract.write.addItem(args, send(await contract.estimateGas.addItem(args, from)));
    }
    const args = [recipient, BigInt(item.initialSupply), royalty] as const;
    return contract.write.addItems(args, send(await contract.estimateGas.addItems(args, from)));
  });

  const receipt = await target.chain.publicClient.waitForTransactionReceipt({ hash });
  const created = parseEventLogs({ abi: sim.abis.collection, eventName: "ItemCreated", logs: receipt.logs });
  const tokenIds = created.map((log) => log.args.tokenId);
  const itemRefs = tokenIds.map((tokenId) => itemRef(target.chainId, collection, tokenId));
  itemRefs.forEach((ref) => sim.metadata.setItem(ref, item));
  await target.indexer.syncTo(receipt.blockNumber);
  return {
    txHash: hash,
    chainId: target.chainId,
    collectionAddress: collection,
    recipient,
    tokenIds: tokenIds.map(Number),
    itemRefs,
    item,
  };
}

export function chainOf(sim: Simulator, chainId: number): SimChain {
  const found = sim.chains.get(chainId);
  if (found) return found;
  const served = [...sim.chains.keys()].join(", ");
  throw new ApiError(400, "VALIDATION_FAILED", `Chain ${chainId} is not served here`, [
    `chainId ${chainId} is unknown; this simulator serves chains ${served}`,
  ]);
}

function collectionNotFound(sim: Simulator, collection: Address, chainId: number): ApiError {
  const elsewhere = [...sim.chains.values()].find((other) => other.indexer.models.collections.has(collection));
  if (!elsewhere) return notFound(`Collection ${collection}`);
  return new ApiError(404, "NOT_FOUND", `Collection ${collection} is not on chain ${chainId}`, [
    `collection ${collection} lives on chain ${elsewhere.chainId}, not on chain ${chainId}`,
  ]);
}

// An estimate is exact for the state it saw; a mint that lands after another may find a different one.
function withMargin(gas: bigint): bigint {
  return (gas * 5n) / 4n;
}

function resolveItem(item: MintBody["item"]): StoredItem {
  return { ...item, maximumSupply: item.maximumSupply ?? item.initialSupply } as StoredItem;
}

const CONTRACT_RULES: Record<string, (args: readonly unknown[]) => string> = {
  RoyaltyTooHigh: ([fee]) => `item.royaltyFee ${fee} is 30% or more; the collection refuses royalties of 300 per mille or more`,
  SupplyAboveMax: ([, requested, max]) => `item.initialSupply ${requested} is above item.maximumSupply ${max}`,
  InvalidAmount: () => "item.initialSupply must be at least 1",
};

/** Runs a chain write, turning the contract's refusals into the API's statuses. */
async function sendChecked<T>(account: ApiAccount, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    const revert = revertOf(error);
    if (!revert) throw new ApiError(503, "CHAIN_UNAVAILABLE", "The chain did not accept the transaction", [String((error as Error).message).split("\n")[0]!]);
    if (revert.name === "AccessControlUnauthorizedAccount") {
      throw new ApiError(403, "FORBIDDEN", "The developer wallet is not authorized on this collection", [
        `developer wallet ${account.wallet} of API key '${account.name}' does not hold the collection's minter role`,
      ]);
    }
    const rule = CONTRACT_RULES[revert.name];
    throw new ApiError(422, "CONTRACT_RULE", "The collection contract refused the mint", [
      rule ? rule(revert.args) : `the contract reverted with ${revert.name}`,
    ]);
  }
}
