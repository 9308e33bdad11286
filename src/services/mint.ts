import { type Address, type Hex, type TransactionReceipt } from "viem";
import { addItem, createdTokenIds } from "../chain/actions/add-item.ts";
import { addItems } from "../chain/actions/add-items.ts";
import type { ChainRegistry } from "../chain/registry.ts";
import type { Presigner } from "../chain/presign.ts";
import type { SimChain } from "../chain/sim-chain.ts";
import type { ApiAccount } from "../config.ts";
import { ApiError, notFound } from "../errors.ts";
import { itemRef } from "../indexer/models.ts";
import type { MetadataStore } from "../metadata/store.ts";
import type { MintBody, MintResponse, StoredItem } from "../schemas/mint.ts";
import { apiErrorOf } from "./chain-errors.ts";
import { followPending, minedWithin } from "./pending-mint.ts";
import { lowerAddress } from "../chain/address.ts";

export interface MintDeps {
  chains: ChainRegistry;
  metadata: MetadataStore;
  /** How long a mint waits for its block before answering 504 MINT_PENDING. */
  mintTimeoutMs: number;
}

/**
 * Mints a new item as the account's developer wallet. The collection contract
 * decides whether the wallet may (its minter role); the call is dry-run first
 * so a refused mint changes nothing on chain. Answers once the block is indexed;
 * if the block does not come in time, 504 with the hash (or 409 if the chain
 * dropped it): the item's metadata is stored under its transaction before it is
 * sent, so an item that lands later is complete.
 */
export async function mintItem(
  { chains, metadata, mintTimeoutMs }: MintDeps,
  account: ApiAccount,
  body: MintBody,
): Promise<MintResponse> {
  const target = servedChain(chains, body.chainId);
  const collection = lowerAddress(body.collectionAddress);
  const lookup = await chains.findCollection(collection, body.chainId);
  if ("unknown" in lookup) throw notFound(`Collection ${collection}`);
  if ("elsewhere" in lookup) {
    throw new ApiError(404, "NOT_FOUND", `Collection ${collection} is not on chain ${body.chainId}`, [
      `collection ${collection} lives on chain ${lookup.elsewhere}, not on chain ${body.chainId}`,
    ]);
  }

  const item = resolveItem(body.item);
  const recipient = lowerAddress(body.recipient);
  if (!item.isStackable && item.initialSupply > item.maximumSupply) {
    throw new ApiError(422, "CONTRACT_RULE", "initialSupply is above maximumSupply", [
      `item.initialSupply (${item.initialSupply}) must not exceed item.maximumSupply (${item.maximumSupply})`,
    ]);
  }

  // Stored under the transaction's hash before it is sent, so an item that lands (even after a 504) is complete;
  // forgotten again if the transaction does not make it (unless a later mint with the same hash stored its own).
  let sent: Hex | undefined;
  const forget = () => {
    if (sent && metadata.item(target.chainId, sent) === item) metadata.setItem(target.chainId, sent, null);
  };
  const presign = {
    key: account.walletKey,
    beforeSend: (hash: Hex) => metadata.setItem(target.chainId, (sent = hash), item),
  };
  const hash = await sendAddItem(target, account, collection, recipient, item, presign).catch((error: unknown) => {
    forget();
    throw apiErrorOf(error, account, "The collection contract refused the mint");
  });
  const receipt = await minedOrTold(target, hash, mintTimeoutMs, forget);
  if (receipt.status !== "success") {
    forget();
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

function sendAddItem(
  chain: SimChain,
  account: ApiAccount,
  collection: Address,
  to: Address,
  item: StoredItem,
  presign: Presigner,
) {
  const common = { from: account.wallet, collection, to, royaltyPerMille: BigInt(item.royaltyFee) };
  const dryRun = { dryRun: true, presign };
  if (item.isStackable)
    return addItem(
      chain,
      { ...common, initialSupply: BigInt(item.initialSupply), maxSupply: BigInt(item.maximumSupply) },
      dryRun,
    );
  return addItems(chain, { ...common, count: BigInt(item.initialSupply) }, dryRun);
}

/**
 * The mint's receipt once its block is indexed. Past the timeout the chain is asked where the
 * transaction is: gone (dropped, or rewound away) answers 409 MINT_DROPPED, never a promise
 * that it will land; still in the pool answers 504 MINT_PENDING, and it is followed until it
 * lands or goes (then its metadata is forgotten).
 */
async function minedOrTold(
  chain: SimChain,
  hash: Hex,
  timeoutMs: number,
  forget: () => void,
): Promise<TransactionReceipt> {
  const outcome = await minedWithin(chain, hash, timeoutMs);
  if ("receipt" in outcome) return outcome.receipt;
  if (outcome.where === "gone") {
    forget();
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
  followPending(chain, hash, forget);
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
