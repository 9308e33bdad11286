import type { Address, Hex } from "viem";
import { apiError, ERRORS } from "../core/errors.ts";
import type { ItemEvent } from "../schemas/item-event.ts";
import type { MintBody, MintResponse, StoredItem } from "../schemas/item.ts";
import { mintItem } from "../schemas/operations.ts";
import { requestValidator } from "../schemas/validate.ts";
import { findCollection, historyKey, type MockRequest, type MockWorld } from "./data.ts";
import { mintBodyFromForm } from "../schemas/mint-form.ts";
import { metadataOf } from "../views/metadata-of.ts";
import { holdersFromHistories } from "./holders.ts";

const ZERO = "0x0000000000000000000000000000000000000000";
const checkQuery = requestValidator(mintItem.query, "query");
const checkBody: (input: unknown) => MintBody = requestValidator(mintItem.body, "body");

/**
 * A mint as the mock can make one: refused for the same reasons and with the same bodies as the
 * simulator's when the request itself is wrong (no apiKey, media type, body, chain, collection);
 * otherwise answered as the simulator answers it, but for a made-up transaction hash: new token ids
 * after the collection's last one, whose histories start with their mint in the block after the
 * chain's head, on the world's clock, whose metadata answers, and a recipient new to the collection
 * counted among its holders. The mock holds no chain: it checks neither the key's minter role nor
 * the contract's rules.
 */
export async function mockMint(world: MockWorld, rawQuery: object, request: MockRequest): Promise<MintResponse> {
  const apiKey = (rawQuery as { apiKey?: unknown }).apiKey;
  if (apiKey === undefined || apiKey === "") throw apiError(ERRORS.API_KEY_REQUIRED, { name: "apiKey" });
  checkQuery(rawQuery);
  const type = (request.contentType ?? "").split(";")[0]!.trim().toLowerCase();
  const form = type === "application/x-www-form-urlencoded";
  if (type !== "application/json" && !type.endsWith("+json") && !form) {
    throw apiError(
      ERRORS.UNSUPPORTED_MEDIA_TYPE,
      { expected: "application/json (or a form)" },
      { errors: [`content-type '${request.contentType || "(none)"}' is not supported`] },
    );
  }
  const body = checkBody(
    form
      ? mintBodyFromForm(Object.fromEntries(new URLSearchParams(await request.body())))
      : parseJson(await request.body()),
  );
  const servedChains = [
    ...new Set(world.perChain.flatMap((views) => [...views.values()].map((view) => view.collection.chainId))),
  ];
  if (!servedChains.includes(body.chainId)) {
    throw apiError(
      ERRORS.UNKNOWN_CHAIN,
      { chainId: body.chainId },
      { errors: [`chainId ${body.chainId} is unknown; this simulator serves chains ${servedChains.join(", ")}`] },
    );
  }
  const collection = body.collectionAddress.toLowerCase() as Address;
  const found = findCollection(world, collection, body.chainId);
  if (!found) {
    const elsewhere = findCollection(world, collection);
    if (!elsewhere) throw apiError(ERRORS.NOT_FOUND, { what: `Collection ${collection}` });
    throw apiError(
      ERRORS.COLLECTION_ON_OTHER_CHAIN,
      { address: collection, chainId: body.chainId },
      {
        errors: [
          `collection ${collection} lives on chain ${elsewhere.collection.chainId}, not on chain ${body.chainId}`,
        ],
      },
    );
  }
  const item = { ...body.item, maximumSupply: body.item.maximumSupply ?? body.item.initialSupply } as StoredItem;
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
  return record(world, body.chainId, collection, body.recipient.toLowerCase() as Address, item);
}

/**
 * The new items: their token ids after the collection's last, their histories starting with the mint in the chain's
 * next block, their metadata; the recipient counted as a holder.
 */
function record(
  world: MockWorld,
  chainId: number,
  collection: Address,
  recipient: Address,
  item: StoredItem,
): MintResponse {
  let last = 0;
  while (world.histories.has(historyKey(chainId, collection, last + 1))) last++;
  const tokenIds = item.isStackable ? [last + 1] : Array.from({ length: item.initialSupply }, (_, i) => last + 1 + i);
  const { blockNumber, timestamp } = nextBlock(world, chainId);
  // A transaction's hash covers its sender's nonce and signature on a chain the mock does not run: one is made up.
  const transactionHash = `0x${blockNumber.toString(16).padStart(8, "0")}${"0".repeat(56)}` as Hex;
  const event = item.isStackable ? "TransferSingle" : "TransferBatch";
  // The collection contract logs ItemCreated for each token id first, then the transfer.
  const logIndex = tokenIds.length;
  const view = findCollection(world, collection, chainId)!;
  // Counted from the histories as they were before this mint.
  countHolder(world, chainId, collection, recipient);
  for (const tokenId of tokenIds) {
    const itemRef = `${chainId}-${collection}-${tokenId}`;
    const mint: ItemEvent = Object.freeze({
      id: `${event}-${blockNumber}-${logIndex}`,
      amount: String(item.isStackable ? item.initialSupply : 1),
      blockNumber,
      chainId,
      event,
      from: ZERO,
      itemCollection: collection,
      itemRef,
      timestamp,
      to: recipient,
      tokenId,
      transactionHash,
    });
    world.histories.set(historyKey(chainId, collection, tokenId), [mint]);
    world.metadata.set(
      `${chainId}/${view.collection.slug}/${tokenId}`,
      metadataOf(item, {
        stackable: item.isStackable,
        maximumSupply: item.isStackable ? item.maximumSupply : tokenIds.length,
        royaltyFee: item.royaltyFee,
      }),
    );
  }
  return {
    txHash: transactionHash,
    chainId,
    collectionAddress: collection,
    recipient,
    tokenIds,
    itemRefs: tokenIds.map((tokenId) => `${chainId}-${collection}-${tokenId}`),
    item,
  };
}

/** The block after the chain's head, stamped by the world's clock (never before the head). */
function nextBlock(world: MockWorld, chainId: number): { blockNumber: number; timestamp: number } {
  const head = world.heads.get(chainId) ?? { chainId, blockNumber: 0, timestamp: 0 };
  const seconds = (ms: number) => Math.floor(ms / 1000);
  const started = world.clock.times.get(chainId) ?? seconds(world.clock.startedAt);
  const now = started + seconds(Date.now()) - seconds(world.clock.startedAt);
  const next = { chainId, blockNumber: head.blockNumber + 1, timestamp: Math.max(head.timestamp, now) };
  world.heads.set(chainId, next);
  return next;
}

/** A recipient who held nothing of the collection becomes one of its holders. */
function countHolder(world: MockWorld, chainId: number, collection: Address, recipient: Address): void {
  const prefix = historyKey(chainId, collection, "");
  const key = `${chainId}-${collection}`;
  let holders = world.holders.get(key);
  if (!holders) {
    const histories = [...world.histories].filter(([item]) => item.startsWith(prefix)).map(([, events]) => events);
    world.holders.set(key, (holders = holdersFromHistories(histories)));
  }
  if (holders.has(recipient)) return;
  holders.add(recipient);
  const index = world.perChain.findIndex((views) => views.get(collection)?.collection.chainId === chainId);
  const view = world.perChain[index]!.get(collection)!;
  const counted = { holders: view.collection.holders + 1 };
  // A new map: the list's orders are made once per map, and the holders order changed.
  world.perChain[index] = new Map(world.perChain[index]).set(
    collection,
    Object.freeze({
      ...view,
      collection: Object.freeze({ ...view.collection, ...counted }),
      summary: Object.freeze({ ...view.summary, ...counted }),
    }),
  );
}

// As the simulator's body parser reads JSON (strict): an empty body is {}, a body that does not start with an object or
// an array is refused.
const OBJECT_OR_ARRAY = /^[\x20\x09\x0a\x0d]*[[{]/;

function parseJson(text: string): unknown {
  if (text === "") return {};
  const invalid = (reason: string) => apiError(ERRORS.INVALID_JSON, {}, { errors: [reason] });
  if (!OBJECT_OR_ARRAY.test(text)) throw invalid("invalid JSON, only supports object and array");
  try {
    return JSON.parse(text);
  } catch (error) {
    throw invalid((error as Error).message);
  }
}
