import { type Address, type Hex } from "viem";
import { addItem, createdTokenIds } from "../chain/actions/add-item.ts";
import { addItems } from "../chain/actions/add-items.ts";
import type { ChainRegistry } from "../chain/registry.ts";
import type { SimChain } from "../chain/sim-chain.ts";
import type { ApiAccount } from "../core/config.ts";
import { apiError, ERRORS } from "../core/errors.ts";
import { itemRef, lowerAddress } from "../core/formats.ts";
import { encodeItemDescription, MetadataTooLarge } from "../metadata/codec.ts";
import type { MintBody, MintResponse, StoredItem } from "../schemas/item.ts";
import { apiErrorOf } from "./chain-errors.ts";
import { minedWithin } from "./pending-write.ts";

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
  if ("unknown" in lookup) throw apiError(ERRORS.NOT_FOUND, { what: `Collection ${collection}` });
  if ("elsewhere" in lookup) {
    throw apiError(
      ERRORS.COLLECTION_ON_OTHER_CHAIN,
      { address: collection, chainId: body.chainId },
      {
        errors: [`collection ${collection} lives on chain ${lookup.elsewhere}, not on chain ${body.chainId}`],
      },
    );
  }

  const recipient = lowerAddress(body.recipient);
  if (!item.isStackable && item.initialSupply > item.maximumSupply) {
    throw apiError(
      ERRORS.SUPPLY_ABOVE_MAX,
      {},
      {
        errors: [
          `item.initialSupply (${item.initialSupply}) must not exceed item.maximumSupply (${item.maximumSupply})`,
        ],
      },
    );
  }

  const hash = await sendAddItem(target, account, collection, recipient, item, metadata).catch((error: unknown) => {
    throw apiErrorOf(error, account);
  });
  const receipt = await minedWithin(target, hash, mintTimeoutMs, "mint");
  if (receipt.status !== "success") {
    throw apiError(ERRORS.CONTRACT_RULE, { what: "the mint" }, { errors: [`transaction ${hash} reverted`] });
  }
  const tokenIds = createdTokenIds(target, receipt);
  const itemRefs = tokenIds.map((tokenId) => itemRef(target.chainId, collection, tokenId));
  return {
    // On a node, the mint may have been sent again (another writer took its nonce): the hash of what was mined.
    txHash: receipt.transactionHash,
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
    throw apiError(
      ERRORS.METADATA_TOO_LARGE,
      { what: "item" },
      {
        errors: [`item: ${error.message}; shorten its description, properties or imageUrl`],
      },
    );
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
  // Signed by any wallet of the key's pool (a keys file may give it several): each holds the minter role.
  const dryRun = { dryRun: true, pooled: true };
  if (item.isStackable) {
    const supply = { initialSupply: BigInt(item.initialSupply), maxSupply: BigInt(item.maximumSupply) };
    return addItem(chain, { ...common, ...supply }, dryRun);
  }
  return addItems(chain, { ...common, count: BigInt(item.initialSupply) }, dryRun);
}

/** The chain a request names, or a 400 that lists the chains served here. */
export function servedChain(chains: ChainRegistry, chainId: number): SimChain {
  const found = chains.get(chainId);
  if (found) return found;
  throw apiError(
    ERRORS.UNKNOWN_CHAIN,
    { chainId },
    {
      errors: [`chainId ${chainId} is unknown; this simulator serves chains ${chains.ids().join(", ")}`],
    },
  );
}

function resolveItem(item: MintBody["item"]): StoredItem {
  return { ...item, maximumSupply: item.maximumSupply ?? item.initialSupply } as StoredItem;
}
