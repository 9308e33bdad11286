import { encodeFunctionData, parseUnits, zeroAddress, type Address, type Hex } from "viem";
import type { SimChain, Simulator } from "../simulator.ts";
import type { ActionName, ActionOf, ScenarioItem } from "./schema.ts";

export interface OpenListing {
  id: bigint;
  seller: Address;
  price: bigint;
  currency: Address;
}

/** What a sender needs of the chain it replays onto (see ChainReplay). */
export interface SendContext {
  readonly sim: Simulator;
  readonly target: SimChain;
  readonly listings: Map<string, OpenListing>;
  listingCount: bigint;
  account(name: string): Address;
  item(id: string): ScenarioItem;
  token(item: string, copy?: number): { collection: Address; tokenId: bigint };
  collectionOf(item: ScenarioItem): Address;
  landItem(item: ScenarioItem): void;
  send(at: number, from: Address, to: Address, data: Hex, value?: bigint): Promise<Hex>;
  approveMarketplace(at: number, seller: Address, collection: Address): Promise<void>;
  fundStablecoin(at: number, buyer: Address): Promise<void>;
}

type Sender<Name extends ActionName> = (replay: SendContext, at: number, action: ActionOf<Name>) => Promise<unknown>;

const decimalsOf = (currency: Address) => (currency === zeroAddress ? 18 : 6);

/** One sender per timeline action: the transaction(s) it becomes. */
export const SENDERS: { [Name in ActionName]: Sender<Name> } = {
  async addItem(replay, at, action) {
    const { abis } = replay.sim;
    const item = replay.item(action.item);
    const to = replay.account(action.to);
    const royalty = BigInt(item.royaltyFee ?? 0);
    const data =
      item.isStackable !== false
        ? encodeFunctionData({ abi: abis.collection, functionName: "addItem", args: [to, BigInt(item.initialSupply), BigInt(item.maximumSupply ?? item.initialSupply), royalty] })
        : encodeFunctionData({ abi: abis.collection, functionName: "addItems", args: [to, BigInt(item.initialSupply), royalty] });
    await replay.send(at, replay.account(action.by), replay.collectionOf(item), data);
    replay.landItem(item);
  },

  mint(replay, at, action) {
    const { collection, tokenId } = replay.token(action.item);
    const data = encodeFunctionData({ abi: replay.sim.abis.collection, functionName: "mint", args: [replay.account(action.to), tokenId, BigInt(action.amount)] });
    return replay.send(at, replay.account(action.by), collection, data);
  },

  transfer(replay, at, action) {
    const { collection, tokenId } = replay.token(action.item, action.copy);
    const from = replay.account(action.from);
    const args = [from, replay.account(action.to), tokenId, BigInt(action.amount), "0x"] as const;
    return replay.send(at, from, collection, encodeFunctionData({ abi: replay.sim.abis.collection, functionName: "safeTransferFrom", args }));
  },

  transferBatch(replay, at, action) {
    const tokens = action.items.map((entry) => replay.token(entry.item, entry.copy));
    const from = replay.account(action.from);
    const ids = tokens.map(({ tokenId }) => tokenId);
    const amounts = action.items.map((entry) => BigInt(entry.amount));
    const args = [from, replay.account(action.to), ids, amounts, "0x"] as const;
    return replay.send(at, from, tokens[0]!.collection, encodeFunctionData({ abi: replay.sim.abis.collection, functionName: "safeBatchTransferFrom", args }));
  },

  burn(replay, at, action) {
    const { collection, tokenId } = replay.token(action.item, action.copy);
    const from = replay.account(action.from);
    const data = encodeFunctionData({ abi: replay.sim.abis.collection, functionName: "burn", args: [from, tokenId, BigInt(action.amount)] });
    return replay.send(at, from, collection, data);
  },

  async list(replay, at, action) {
    const { contracts } = replay.target;
    const { collection, tokenId } = replay.token(action.item, action.copy);
    const seller = replay.account(action.seller);
    await replay.approveMarketplace(at, seller, collection);
    const currency = action.currency === "native" ? zeroAddress : contracts.stablecoin;
    const price = parseUnits(action.price, decimalsOf(currency));
    const args = [collection, tokenId, BigInt(action.amount), price, currency] as const;
    await replay.send(at, seller, contracts.marketplace, encodeFunctionData({ abi: replay.sim.abis.marketplace, functionName: "list", args }));
    replay.listingCount += 1n;
    replay.listings.set(action.listing, { id: replay.listingCount, seller, price, currency });
  },

  updatePrice(replay, at, action) {
    const listing = replay.listings.get(action.listing)!;
    listing.price = parseUnits(action.price, decimalsOf(listing.currency));
    const data = encodeFunctionData({ abi: replay.sim.abis.marketplace, functionName: "updatePrice", args: [listing.id, listing.price] });
    return replay.send(at, listing.seller, replay.target.contracts.marketplace, data);
  },

  addToListing: (replay, at, action) => changeListedAmount(replay, at, "addToListing", action.listing, action.amount),
  removeFromListing: (replay, at, action) => changeListedAmount(replay, at, "removeFromListing", action.listing, action.amount),

  delist(replay, at, action) {
    const listing = replay.listings.get(action.listing)!;
    const data = encodeFunctionData({ abi: replay.sim.abis.marketplace, functionName: "delist", args: [listing.id] });
    return replay.send(at, listing.seller, replay.target.contracts.marketplace, data);
  },

  async buy(replay, at, action) {
    const listing = replay.listings.get(action.listing)!;
    const buyer = replay.account(action.buyer);
    const amount = BigInt(action.amount);
    const native = listing.currency === zeroAddress;
    if (!native) await replay.fundStablecoin(at, buyer);
    const data = encodeFunctionData({ abi: replay.sim.abis.marketplace, functionName: "buy", args: [listing.id, amount] });
    await replay.send(at, buyer, replay.target.contracts.marketplace, data, native ? listing.price * amount : 0n);
  },
};

function changeListedAmount(replay: SendContext, at: number, functionName: "addToListing" | "removeFromListing", name: string, amount: number) {
  const listing = replay.listings.get(name)!;
  const data = encodeFunctionData({ abi: replay.sim.abis.marketplace, functionName, args: [listing.id, BigInt(amount)] });
  return replay.send(at, listing.seller, replay.target.contracts.marketplace, data);
}
