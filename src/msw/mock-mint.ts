import type { Address, Hex } from "viem";
import { apiError, ERRORS } from "../core/errors.ts";
import type { ItemEvent } from "../schemas/item-event.ts";
import type { MintBody, MintResponse, StoredItem } from "../schemas/item.ts";
import { mintItem } from "../schemas/operations.ts";
import { requestValidator } from "../schemas/validate.ts";
import { findCollection, historyKey, type MockRequest, type MockWorld } from "./data.ts";
import { mintBodyFromForm } from "../schemas/mint-form.ts";

const ZERO = "0x0000000000000000000000000000000000000000";
const checkQuery = requestValidator(mintItem.query, "query");
const checkBody: (input: unknown) => MintBody = requestValidator(mintItem.body, "body");

/**
 * A mint as the mock can make one: refused for the same reasons and with the same bodies as the
 * simulator's when the request itself is wrong (no apiKey, media type, body, chain, collection);
 * otherwise answered with new token ids after the collection's last one and a made-up
 * transaction hash, and the new items' histories start with their mint. The mock holds no chain:
 * it neither checks the key's minter role nor the contract's rules, and the collection's figures
 * (holders) stay as snapshotted.
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
  const blockNumber = (world.lastBlock.get(chainId) ?? 0) + 1;
  world.lastBlock.set(chainId, blockNumber);
  const transactionHash = `0x${blockNumber.toString(16).padStart(8, "0")}${"0".repeat(56)}` as Hex;
  const event = item.isStackable ? "TransferSingle" : "TransferBatch";
  for (const tokenId of tokenIds) {
    const itemRef = `${chainId}-${collection}-${tokenId}`;
    const mint: ItemEvent = Object.freeze({
      id: `${event}-${blockNumber}-0`,
      amount: String(item.isStackable ? item.initialSupply : 1),
      blockNumber,
      chainId,
      event,
      from: ZERO,
      itemCollection: collection,
      itemRef,
      timestamp: Math.floor(Date.now() / 1000),
      to: recipient,
      tokenId,
      transactionHash,
    });
    world.histories.set(historyKey(chainId, collection, tokenId), [mint]);
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
