import { parseUnits, zeroAddress, type Address, type Hex } from "viem";
import { addItem } from "../chain/actions/add-item.ts";
import { addItems } from "../chain/actions/add-items.ts";
import { addToListing } from "../chain/actions/add-to-listing.ts";
import { burn } from "../chain/actions/burn.ts";
import { buy } from "../chain/actions/buy.ts";
import { delist } from "../chain/actions/delist.ts";
import { list } from "../chain/actions/list.ts";
import { mintMore } from "../chain/actions/mint-more.ts";
import { removeFromListing } from "../chain/actions/remove-from-listing.ts";
import { transfer } from "../chain/actions/transfer.ts";
import { transferBatch } from "../chain/actions/transfer-batch.ts";
import { updatePrice } from "../chain/actions/update-price.ts";
import { CURRENCY_DECIMALS, currencyAddress } from "../chain/currencies.ts";
import type { SimChain, WriteOptions } from "../chain/sim-chain.ts";
import type { ActionName, ActionOf, ScenarioItem } from "../schemas/scenario.ts";

export interface OpenListing {
  id: bigint;
  seller: Address;
  price: bigint;
  currency: Address;
  decimals: number;
}

/** What a sender needs of the chain it replays onto (see ChainReplay). */
export interface SendContext {
  readonly chain: SimChain;
  readonly listings: Map<string, OpenListing>;
  listingCount: bigint;
  account(name: string): Address;
  item(id: string): ScenarioItem;
  token(item: string, copy?: number): { collection: Address; tokenId: bigint };
  collectionOf(item: ScenarioItem): Address;
  itemMetadata(item: ScenarioItem): Hex;
  landItem(item: ScenarioItem): Promise<void>;
  landListing(handle: string, listing: OpenListing): void;
  approveMarketplace(seller: Address, collection: Address, at: WriteOptions): Promise<void>;
  fundStablecoin(buyer: Address, needed: bigint, at: WriteOptions): Promise<void>;
}

/** `at` stamps the transaction's block with the action's time; answers the hash of the action's own transaction. */
type Sender<Name extends ActionName> = (replay: SendContext, action: ActionOf<Name>, at: WriteOptions) => Promise<Hex>;

/** One sender per timeline action: the chain action(s) it becomes. */
export const SENDERS: { [Name in ActionName]: Sender<Name> } = {
  async addItem(replay, action, at) {
    const item = replay.item(action.item);
    const common = {
      from: replay.account(action.by),
      collection: replay.collectionOf(item),
      to: replay.account(action.to),
      royaltyPerMille: BigInt(item.royaltyFee ?? 0),
      metadata: replay.itemMetadata(item),
    };
    // Where it lands is the collection's next token ids, known before the transaction makes them.
    await replay.landItem(item);
    const hash = await (item.isStackable !== false
      ? addItem(
          replay.chain,
          {
            ...common,
            initialSupply: BigInt(item.initialSupply),
            maxSupply: BigInt(item.maximumSupply ?? item.initialSupply),
          },
          at,
        )
      : addItems(replay.chain, { ...common, count: BigInt(item.initialSupply) }, at));
    return hash;
  },

  mint: (replay, action, at) =>
    mintMore(
      replay.chain,
      {
        from: replay.account(action.by),
        to: replay.account(action.to),
        ...replay.token(action.item),
        amount: BigInt(action.amount),
      },
      at,
    ),

  transfer: (replay, action, at) =>
    transfer(
      replay.chain,
      {
        from: replay.account(action.from),
        to: replay.account(action.to),
        ...replay.token(action.item, action.copy),
        amount: BigInt(action.amount),
      },
      at,
    ),

  transferBatch(replay, action, at) {
    const tokens = action.items.map((entry) => replay.token(entry.item, entry.copy));
    const tokenIds = tokens.map(({ tokenId }) => tokenId);
    const amounts = action.items.map((entry) => BigInt(entry.amount));
    return transferBatch(
      replay.chain,
      {
        from: replay.account(action.from),
        to: replay.account(action.to),
        collection: tokens[0]!.collection,
        tokenIds,
        amounts,
      },
      at,
    );
  },

  burn: (replay, action, at) =>
    burn(
      replay.chain,
      { from: replay.account(action.from), ...replay.token(action.item, action.copy), amount: BigInt(action.amount) },
      at,
    ),

  async list(replay, action, at) {
    const { collection, tokenId } = replay.token(action.item, action.copy);
    const seller = replay.account(action.seller);
    await replay.approveMarketplace(seller, collection, at);
    const currency = currencyAddress(action.currency, replay.chain.contracts.stablecoin);
    const decimals = CURRENCY_DECIMALS[action.currency];
    const price = parseUnits(action.price, decimals);
    const params = { seller, collection, tokenId, amount: BigInt(action.amount), price, currency };
    const hash = await list(replay.chain, params, at);
    replay.listingCount += 1n;
    replay.landListing(action.listing, { id: replay.listingCount, seller, price, currency, decimals });
    return hash;
  },

  updatePrice(replay, action, at) {
    const listing = replay.listings.get(action.listing)!;
    listing.price = parseUnits(action.price, listing.decimals);
    return updatePrice(replay.chain, { seller: listing.seller, listingId: listing.id, price: listing.price }, at);
  },

  addToListing(replay, action, at) {
    const { seller, id } = replay.listings.get(action.listing)!;
    return addToListing(replay.chain, { seller, listingId: id, amount: BigInt(action.amount) }, at);
  },

  removeFromListing(replay, action, at) {
    const { seller, id } = replay.listings.get(action.listing)!;
    return removeFromListing(replay.chain, { seller, listingId: id, amount: BigInt(action.amount) }, at);
  },

  delist(replay, action, at) {
    const { seller, id } = replay.listings.get(action.listing)!;
    return delist(replay.chain, { seller, listingId: id }, at);
  },

  async buy(replay, action, at) {
    const listing = replay.listings.get(action.listing)!;
    const buyer = replay.account(action.buyer);
    const amount = BigInt(action.amount);
    const native = listing.currency === zeroAddress;
    if (!native) await replay.fundStablecoin(buyer, listing.price * amount, at);
    return buy(
      replay.chain,
      { buyer, listingId: listing.id, amount, value: native ? listing.price * amount : undefined },
      at,
    );
  },
};
