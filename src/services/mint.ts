import { type Address, type Hex, type TransactionReceipt } from "viem";
import { addItem, createdTokenIds } from "../chain/actions/add-item.ts";
import { addItems } from "../chain/actions/add-items.ts";
import type { ChainRegistry } from "../chain/registry.ts";
import type { SimChain } from "../chain/sim-chain.ts";
import type { ApiAccount } from "../config.ts";
import { ApiError, notFound } from "../errors.ts";
import { itemRef } from "../indexer/models.ts";
import { encodeItemDescription, MetadataTooLarge } from "../metadata/codec.ts";
import type { MintBody, MintResponse, StoredItem } from "../schemas/mint.ts";
import { apiErrorOf } from "./chain-errors.ts";
import { minedWithin } from "./pending-mint.ts";
import { lowerAddress } from "../chain/address.ts";

export interface MintDeps {
  chains: ChainRegistry;
  /** How long a mint waits for its block before answering 504 MINT_PENDING. */
  mintTimeoutMs: number;
}

/**
 * Mints a new item as the account's developer wallet. The collection contract
 * decides whether the wallet may (its minter role); the call is dry-run first
 * so a refused mint changes nothing on chain. The item's description goes on chain
 * with it (ItemDescribed), so every instance reading the chain knows the item whole.
 * Answers once the block is indexed; if the block does not come in time, 504 with
 * the hash (or 409 if the chain dropped it).
 */
export async function mintItem(
  { chains, mintTimeoutMs }: MintDeps,
  account: ApiAccount,
  body: MintBody,
): Promise<MintResponse> {
  const target = servedChain(chains, body.chainId);
  const collection = lowerAddress(body.collectionAddress);
  const item = resolveItem(body.item);
  const metadata = describe(item);
  const lookup = await chains.findCollection(collection, body.chainId);
  if ("unknown" in lookup) throw notFound(`Collection ${collection}`);
  if ("elsewhere" in lookup) {
    throw new ApiError(404, "NOT_FOUND", `Collection ${collection} is not on chain ${body.chainId}`, [
      `collection ${collection} lives on chain ${lookup.elsewhere}, not on chain ${body.chainId}`,
    ]);
  }

  const recipient = lowerAddress(body.recipient);
  if (!item.isStackable && item.initialSupply > item.maximumSupply) {
    throw new ApiError(422, "CONTRACT_RULE", "initialSupply is above maximumSupply", [
      `item.initialSupply (${item.initialSupply}) must not exceed item.maximumSupply (${item.maximumSupply})`,
    ]);
  }

  const hash = await sendAddItem(target, account, collection, recipient, item, metadata).catch((error: unknown) => {
    throw apiErrorOf(error, account, "The collection contract refused the mint");
  });
  const receipt = await minedOrTold(target, hash, mintTimeoutMs);
  if (receipt.status !== "success") {
    throw new ApiError(422, "CONTRACT_RULE", "The collection contract refused the mint", [
      `transaction ${hash} reverted`,
    ]);
  }
  const tokenIds = createdTokenIds(target, receipt);
  const itemRefs = tokenIds.map((tokenId) => itemRef(target.chainId, collection, tokenId));
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

/** The item's description as it goes on chain, or 413 if it is too large to (before anything is sent). */
function describe(item: StoredItem): Hex {
  try {
    return encodeItemDescription(item);
  } catch (error) {
    if (!(error instanceof MetadataTooLarge)) throw error;
    throw new ApiError(413, "PAYLOAD_TOO_LARGE", "The item's metadata is too large to go on chain", [
      `item: ${error.message}; shorten its description, properties or imageUrl`,
    ]);
  }
}

function sendAddItem(
  chain: SimChain,
  account: ApiAccount,
  collection: Address,
  to: Address,
  item: StoredItem,
  metadata: Hex,
) {
  const common = { from: account.wallet, collection, to, royaltyPerMille: BigInt(item.royaltyFee), metadata };
  const dryRun = { dryRun: true };
  if (item.isStackable) {
    const supply = { initialSupply: BigInt(item.initialSupply), maxSupply: BigInt(item.maximumSupply) };
    return addItem(chain, { ...common, ...supply }, dryRun);
  }
  return addItems(chain, { ...common, count: BigInt(item.initialSupply) }, dryRun);
}

/**
 * The mint's receipt once its block is indexed. Past the timeout the chain is asked where the
 * transaction is: gone (dropped, or rewound away) answers 409 MINT_DROPPED, never a promise
 * that it will land; still in the pool answers 504 MINT_PENDING (the item appears, whole, once
 * it is mined: its description is in the transaction).
 */
async function minedOrTold(chain: SimChain, hash: Hex, timeoutMs: number): Promise<TransactionReceipt> {
  const outcome = await minedWithin(chain, hash, timeoutMs);
  if ("receipt" in outcome) return outcome.receipt;
  if (outcome.where === "gone") {
    throw new ApiError(
      409,
      "MINT_DROPPED",
      "The mint's transaction was dropped before it was mined",
      [
        `transaction ${hash} left the chain without being mined (the chain was rewound, e.g. evm_revert, or its pool cleared); nothing was minted: send the mint again`,
      ],
      { txHash: hash },
    );
  }
  throw new ApiError(
    504,
    "MINT_PENDING",
    "The mint was sent but its block did not come in time",
    [`transaction ${hash} was not mined within ${timeoutMs} ms; its item appears, complete, once it is`],
    { txHash: hash },
  );
}

/** The chain a request names, or a 400 that lists the chains served here. */
export function servedChain(chains: ChainRegistry, chainId: number): SimChain {
  const found = chains.get(chainId);
  if (found) return found;
  throw new ApiError(400, "VALIDATION_FAILED", `Chain ${chainId} is not served here`, [
    `chainId ${chainId} is unknown; this simulator serves chains ${chains.ids().join(", ")}`,
  ]);
}

function resolveItem(item: MintBody["item"]): StoredItem {
  return { ...item, maximumSupply: item.maximumSupply ?? item.initialSupply } as StoredItem;
}
