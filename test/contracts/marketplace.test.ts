import { beforeAll, describe, expect, it } from "vitest";
import hre from "hardhat";
import type { ContractReturnType } from "@nomicfoundation/hardhat-viem/types";
import { maxUint256, parseEther, zeroAddress, type Abi, type Address, type Hex } from "viem";
import {
  eventsOf,
  lc,
  normalize,
  projectAbi,
  revertOf,
  type DecodedEvent,
  type PublicClient,
  type Viem,
  type WalletClient,
} from "./helpers.ts";

type Market = ContractReturnType<"Marketplace">;
type Items = ContractReturnType<"Collection">;
type ListingTuple = readonly [Address, Address, bigint, bigint, bigint, Address];

const ROYALTY_ITEM = 1n; // 50 per mille = 5 %, receiver = creator
const FREE_ITEM = 2n; // no royalty
const TUSD = 1_000_000n; // 1 token with 6 decimals

describe("Marketplace", () => {
  let viem: Viem;
  let publicClient: PublicClient;
  let abi: Abi;
  let creator: WalletClient, seller: WalletClient, buyer: WalletClient, stranger: WalletClient;
  let creatorAddr: Address, sellerAddr: Address, buyerAddr: Address, strangerAddr: Address;
  let market: Market, collection: Items, stablecoin: ContractReturnType<"TestStablecoin">;
  let marketAddr: Address, collectionAddr: Address, stablecoinAddr: Address;
  /** Contracts as seen by each wallet. */
  let sellerMarket: Market, buyerMarket: Market, strangerMarket: Market;
  let sellerCollection: Items;

  const marketAs = (wallet: WalletClient) => viem.getContractAt("Marketplace", marketAddr, { client: { wallet } });

  async function listing(id: bigint) {
    const [seller, coll, tokenId, amount, price, currency] = (await market.read.listings([id])) as ListingTuple;
    return { seller: lc(seller), collection: lc(coll), tokenId, amount, price, currency: lc(currency) };
  }

  async function balance1155(who: Address, id: bigint, c: { address: Address } = collection): Promise<bigint> {
    const items = await viem.getContractAt("Collection", c.address);
    return items.read.balanceOf([who, id]);
  }

  async function tusd(who: Address): Promise<bigint> {
    return (await stablecoin.read.balanceOf([who])) as bigint;
  }

  /** Lists as the seller and returns the new listing id (from ItemListed) plus the events. */
  async function list(
    tokenId: bigint,
    amount: bigint,
    price: bigint,
    currency: Address = zeroAddress,
    as: Market = sellerMarket,
    coll: Address = collectionAddr,
  ): Promise<{ id: bigint; events: DecodedEvent[] }> {
    const events = await eventsOf(publicClient, abi, await as.write.list([coll, tokenId, amount, price, currency]));
    const listed = events.find((e) => e.eventName === "ItemListed");
    if (!listed) throw new Error("no ItemListed");
    return { id: listed.args.listingId as bigint, events };
  }

  /** Gas paid by the sender of a mined transaction. */
  async function gasCost(hash: Hex): Promise<bigint> {
    const receipt = await publicClient.waitForTransactionReceipt({ hash });
    return receipt.gasUsed * receipt.effectiveGasPrice;
  }

  beforeAll(async () => {
    ({ viem } = await hre.network.create());
    publicClient = await viem.getPublicClient();
    abi = await projectAbi();
    const wallets = await viem.getWalletClients();
    [, creator, seller, buyer, stranger] = wallets;
    [creatorAddr, sellerAddr, buyerAddr, strangerAddr] = [creator, seller, buyer, stranger].map(
      (w) => w.account.address.toLowerCase() as Address,
    );

    [market, collection, stablecoin] = await Promise.all([
      viem.deployContract("Marketplace", []),
      viem.deployContract("Collection", ["Market Test", "https://meta.example.test/m", creatorAddr, []], {
        client: { wallet: creator },
      }),
      viem.deployContract("TestStablecoin", []),
    ]);
    [marketAddr, collectionAddr, stablecoinAddr] = [market, collection, stablecoin].map(
      (c) => c.address.toLowerCase() as Address,
    );
    [sellerMarket, buyerMarket, strangerMarket] = await Promise.all([seller, buyer, stranger].map(marketAs));
    sellerCollection = await viem.getContractAt("Collection", collectionAddr, { client: { wallet: seller } });

    // item 1: royalty 5 % to the creator; item 2: no royalty. Both minted to the seller.
    await collection.write.addItem([sellerAddr, 1_000n, 10_000n, 50n]);
    await collection.write.addItem([sellerAddr, 1_000n, 10_000n, 0n]);
    await sellerCollection.write.setApprovalForAll([marketAddr, true]);

    // the buyer has stablecoins and approved the marketplace
    await stablecoin.write.mint([buyerAddr, 1_000_000n * TUSD]);
    await (
      await viem.getContractAt("TestStablecoin", stablecoinAddr, { client: { wallet: buyer } })
    ).write.approve([marketAddr, maxUint256]);
  });

  describe("TestStablecoin", () => {
    it("is a 6-decimals Test USD with an open faucet", async () => {
      expect(await stablecoin.read.name()).toBe("Test USD");
      expect(await stablecoin.read.symbol()).toBe("TUSD");
      expect(await stablecoin.read.decimals()).toBe(6);
      const faucet = await viem.getContractAt("TestStablecoin", stablecoinAddr, { client: { wallet: stranger } });
      const events = await eventsOf(publicClient, abi, await faucet.write.mint([strangerAddr, 5n * TUSD]));
      expect(events.map((e) => e.eventName)).toEqual(["Transfer"]);
      expect(normalize(events[0].args)).toEqual({ from: zeroAddress, to: strangerAddr, value: 5n * TUSD });
      expect(await tusd(strangerAddr)).toBe(5n * TUSD);
    });
  });

  describe("listing management", () => {
    it("list moves the items into escrow, TransferSingle first and then ItemListed", async () => {
      const count = (await market.read.listingCount()) as bigint;
      const sellerBefore = await balance1155(sellerAddr, ROYALTY_ITEM);
      const predicted = await sellerMarket.simulate.list(
        [collectionAddr, ROYALTY_ITEM, 10n, parseEther("0.1"), zeroAddress],
        {
          account: seller.account.address,
        },
      );
      expect(predicted.result).toBe(count + 1n);

      const { id, events } = await list(ROYALTY_ITEM, 10n, parseEther("0.1"));
      expect(id).toBe(count + 1n);
      expect(await market.read.listingCount()).toBe(id);
      expect(events.map((e) => e.eventName)).toEqual(["TransferSingle", "ItemListed"]);
      expect(events[0].address).toBe(collectionAddr);
      expect(normalize(events[0].args)).toEqual({
        operator: marketAddr,
        from: sellerAddr,
        to: marketAddr,
        id: ROYALTY_ITEM,
        value: 10n,
      });
      expect(events[1].address).toBe(marketAddr);
      expect(normalize(events[1].args)).toEqual({
        listingId: id,
        seller: sellerAddr,
        collection: collectionAddr,
        tokenId: ROYALTY_ITEM,
        amount: 10n,
        price: parseEther("0.1"),
        currency: zeroAddress,
      });
      expect(await balance1155(sellerAddr, ROYALTY_ITEM)).toBe(sellerBefore - 10n);
      expect(await balance1155(marketAddr, ROYALTY_ITEM)).toBe(10n);
      expect(await listing(id)).toEqual({
        seller: sellerAddr,
        collection: collectionAddr,
        tokenId: ROYALTY_ITEM,
        amount: 10n,
        price: parseEther("0.1"),
        currency: zeroAddress,
      });

      // clean up so escrow balances stay easy to reason about in later tests
      await sellerMarket.write.delist([id]);
      expect(await balance1155(marketAddr, ROYALTY_ITEM)).toBe(0n);
    });

    it("list refuses amount 0, price 0, a missing approval and a missing balance", async () => {
      const count = await market.read.listingCount();
      expect(await revertOf(abi, sellerMarket.write.list([collectionAddr, ROYALTY_ITEM, 0n, 1n, zeroAddress]))).toEqual(
        {
          errorName: "InvalidAmount",
          args: [],
        },
      );
      expect(await revertOf(abi, sellerMarket.write.list([collectionAddr, ROYALTY_ITEM, 1n, 0n, zeroAddress]))).toEqual(
        {
          errorName: "InvalidPrice",
          args: [],
        },
      );
      // the stranger never approved the marketplace
      expect(
        await revertOf(abi, strangerMarket.write.list([collectionAddr, ROYALTY_ITEM, 1n, 1n, zeroAddress])),
      ).toEqual({
        errorName: "ERC1155MissingApprovalForAll",
        args: [marketAddr, strangerAddr],
      });
      const held = await balance1155(sellerAddr, FREE_ITEM);
      expect(
        await revertOf(abi, sellerMarket.write.list([collectionAddr, FREE_ITEM, held + 1n, 1n, zeroAddress])),
      ).toEqual({
        errorName: "ERC1155InsufficientBalance",
        args: [sellerAddr, held, held + 1n, FREE_ITEM],
      });
      expect(await market.read.listingCount()).toBe(count);
    });

    it("updatePrice changes the price for the seller only and emits ItemPriceUpdated", async () => {
      const { id } = await list(FREE_ITEM, 6n, 1_000n);
      const events = await eventsOf(publicClient, abi, await sellerMarket.write.updatePrice([id, 2_500n]));
      expect(events.map((e) => e.eventName)).toEqual(["ItemPriceUpdated"]);
      expect(normalize(events[0].args)).toEqual({
        listingId: id,
        seller: sellerAddr,
        collection: collectionAddr,
        tokenId: FREE_ITEM,
        amount: 6n,
        price: 2_500n,
        currency: zeroAddress,
      });
      expect((await listing(id)).price).toBe(2_500n);

      expect(await revertOf(abi, strangerMarket.write.updatePrice([id, 1n]))).toEqual({
        errorName: "NotSeller",
        args: [id, strangerAddr],
      });
      expect(await revertOf(abi, sellerMarket.write.updatePrice([id, 0n]))).toEqual({
        errorName: "InvalidPrice",
        args: [],
      });
      expect((await listing(id)).price).toBe(2_500n);
      await sellerMarket.write.delist([id]);
    });

    it("addToListing escrows more units for the seller only and emits ItemAdded", async () => {
      const { id } = await list(FREE_ITEM, 2n, 700n);
      const sellerBefore = await balance1155(sellerAddr, FREE_ITEM);

      const events = await eventsOf(publicClient, abi, await sellerMarket.write.addToListing([id, 3n]));
      expect(events.map((e) => e.eventName)).toEqual(["TransferSingle", "ItemAdded"]);
      expect(normalize(events[0].args)).toEqual({
        operator: marketAddr,
        from: sellerAddr,
        to: marketAddr,
        id: FREE_ITEM,
        value: 3n,
      });
      expect(normalize(events[1].args)).toEqual({
        listingId: id,
        seller: sellerAddr,
        collection: collectionAddr,
        tokenId: FREE_ITEM,
        amount: 3n,
        price: 700n,
        currency: zeroAddress,
      });
      expect((await listing(id)).amount).toBe(5n);
      expect(await balance1155(sellerAddr, FREE_ITEM)).toBe(sellerBefore - 3n);
      expect(await balance1155(marketAddr, FREE_ITEM)).toBe(5n);

      expect(await revertOf(abi, strangerMarket.write.addToListing([id, 1n]))).toEqual({
        errorName: "NotSeller",
        args: [id, strangerAddr],
      });
      expect(await revertOf(abi, sellerMarket.write.addToListing([id, 0n]))).toEqual({
        errorName: "InvalidAmount",
        args: [],
      });
      expect((await listing(id)).amount).toBe(5n);
      await sellerMarket.write.delist([id]);
    });

    it("removeFromListing returns part of the escrow, must leave at least one unit, and emits ItemRemoved", async () => {
      const { id } = await list(FREE_ITEM, 5n, 900n);
      const sellerBefore = await balance1155(sellerAddr, FREE_ITEM);

      const events = await eventsOf(publicClient, abi, await sellerMarket.write.removeFromListing([id, 2n]));
      expect(events.map((e) => e.eventName)).toEqual(["TransferSingle", "ItemRemoved"]);
      expect(normalize(events[0].args)).toEqual({
        operator: marketAddr,
        from: marketAddr,
        to: sellerAddr,
        id: FREE_ITEM,
        value: 2n,
      });
      expect(normalize(events[1].args)).toEqual({
        listingId: id,
        seller: sellerAddr,
        collection: collectionAddr,
        tokenId: FREE_ITEM,
        amount: 2n,
        price: 900n,
        currency: zeroAddress,
      });
      expect((await listing(id)).amount).toBe(3n);
      expect(await balance1155(sellerAddr, FREE_ITEM)).toBe(sellerBefore + 2n);
      expect(await balance1155(marketAddr, FREE_ITEM)).toBe(3n);

      // removing everything (or more) is refused: that is what delist is for
      for (const amount of [0n, 3n, 4n]) {
        expect(await revertOf(abi, sellerMarket.write.removeFromListing([id, amount]))).toEqual({
          errorName: "InvalidAmount",
          args: [],
        });
      }
      expect(await revertOf(abi, strangerMarket.write.removeFromListing([id, 1n]))).toEqual({
        errorName: "NotSeller",
        args: [id, strangerAddr],
      });
      expect((await listing(id)).amount).toBe(3n);
      await sellerMarket.write.delist([id]);
    });

    it("delist returns the remaining units to the seller, emits ItemDelisted and closes the listing", async () => {
      const { id } = await list(ROYALTY_ITEM, 7n, 333n, stablecoinAddr);
      await buyerMarket.write.buy([id, 2n]);
      const sellerBefore = await balance1155(sellerAddr, ROYALTY_ITEM);

      expect(await revertOf(abi, strangerMarket.write.delist([id]))).toEqual({
        errorName: "NotSeller",
        args: [id, strangerAddr],
      });
      expect(await revertOf(abi, buyerMarket.write.delist([id]))).toEqual({
        errorName: "NotSeller",
        args: [id, buyerAddr],
      });

      const events = await eventsOf(publicClient, abi, await sellerMarket.write.delist([id]));
      expect(events.map((e) => e.eventName)).toEqual(["TransferSingle", "ItemDelisted"]);
      expect(normalize(events[0].args)).toEqual({
        operator: marketAddr,
        from: marketAddr,
        to: sellerAddr,
        id: ROYALTY_ITEM,
        value: 5n,
      });
      expect(normalize(events[1].args)).toEqual({
        listingId: id,
        seller: sellerAddr,
        collection: collectionAddr,
        tokenId: ROYALTY_ITEM,
        amount: 5n,
        price: 333n,
        currency: stablecoinAddr,
      });
      expect(await balance1155(sellerAddr, ROYALTY_ITEM)).toBe(sellerBefore + 5n);
      expect(await balance1155(marketAddr, ROYALTY_ITEM)).toBe(0n);
      expect((await listing(id)).amount).toBe(0n);

      // a closed listing accepts nothing any more
      const inactive = { errorName: "ListingNotActive", args: [id] };
      expect(await revertOf(abi, sellerMarket.write.delist([id]))).toEqual(inactive);
      expect(await revertOf(abi, sellerMarket.write.updatePrice([id, 5n]))).toEqual(inactive);
      expect(await revertOf(abi, sellerMarket.write.addToListing([id, 1n]))).toEqual(inactive);
      expect(await revertOf(abi, sellerMarket.write.removeFromListing([id, 1n]))).toEqual(inactive);
      expect(await revertOf(abi, buyerMarket.write.buy([id, 1n]))).toEqual(inactive);
      // as does a listing that never existed
      expect(await revertOf(abi, buyerMarket.write.buy([9_999n, 1n], { value: 1n }))).toEqual({
        errorName: "ListingNotActive",
        args: [9_999n],
      });
      expect(await revertOf(abi, sellerMarket.write.delist([0n]))).toEqual({
        errorName: "ListingNotActive",
        args: [0n],
      });
    });
  });

  describe("buying with the native coin", () => {
    it("a full buy pays the royalty to the creator and the rest to the seller, and moves the items to the buyer", async () => {
      const price = parseEther("0.25");
      const { id } = await list(ROYALTY_ITEM, 4n, price);
      const total = price * 4n; // 1 ETH
      const royalty = (total * 50n) / 1000n; // 0.05 ETH

      const [creatorBefore, sellerBefore, buyerBefore, itemsBefore] = await Promise.all([
        publicClient.getBalance({ address: creatorAddr }),
        publicClient.getBalance({ address: sellerAddr }),
        publicClient.getBalance({ address: buyerAddr }),
        balance1155(buyerAddr, ROYALTY_ITEM),
      ]);
      const hash = await buyerMarket.write.buy([id, 4n], { value: total });
      const events = await eventsOf(publicClient, abi, hash);
      const gas = await gasCost(hash);

      expect(await publicClient.getBalance({ address: creatorAddr })).toBe(creatorBefore + royalty);
      expect(await publicClient.getBalance({ address: sellerAddr })).toBe(sellerBefore + total - royalty);
      expect(await publicClient.getBalance({ address: buyerAddr })).toBe(buyerBefore - total - gas);
      expect(await publicClient.getBalance({ address: marketAddr })).toBe(0n);
      expect(await balance1155(buyerAddr, ROYALTY_ITEM)).toBe(itemsBefore + 4n);
      expect(await balance1155(marketAddr, ROYALTY_ITEM)).toBe(0n);

      expect(events.map((e) => e.eventName)).toEqual(["TransferSingle", "Swapped"]);
      expect(normalize(events[0].args)).toEqual({
        operator: marketAddr,
        from: marketAddr,
        to: buyerAddr,
        id: ROYALTY_ITEM,
        value: 4n,
      });
      expect(normalize(events[1].args)).toEqual({
        listingId: id,
        buyer: buyerAddr,
        seller: sellerAddr,
        collection: collectionAddr,
        tokenId: ROYALTY_ITEM,
        amount: 4n,
        price,
        currency: zeroAddress,
      });
      expect(await listing(id)).toMatchObject({ amount: 0n, seller: sellerAddr });
      expect(await revertOf(abi, buyerMarket.write.buy([id, 1n], { value: price }))).toEqual({
        errorName: "ListingNotActive",
        args: [id],
      });
    });

    it("partial buys bring the listing down to 0, then it is inactive", async () => {
      const price = 10_000n;
      const { id } = await list(FREE_ITEM, 5n, price);
      const sellerBefore = await publicClient.getBalance({ address: sellerAddr });

      const first = await eventsOf(publicClient, abi, await buyerMarket.write.buy([id, 2n], { value: 2n * price }));
      expect(first.find((e) => e.eventName === "Swapped")?.args).toMatchObject({ amount: 2n, price });
      expect((await listing(id)).amount).toBe(3n);
      expect(await balance1155(marketAddr, FREE_ITEM)).toBe(3n);

      // more than remaining, and zero, are refused
      expect(await revertOf(abi, buyerMarket.write.buy([id, 4n], { value: 4n * price }))).toEqual({
        errorName: "InvalidAmount",
        args: [],
      });
      expect(await revertOf(abi, buyerMarket.write.buy([id, 0n]))).toEqual({ errorName: "InvalidAmount", args: [] });

      // a different buyer takes one
      const strangerItems = await balance1155(strangerAddr, FREE_ITEM);
      const second = await eventsOf(publicClient, abi, await strangerMarket.write.buy([id, 1n], { value: price }));
      expect(normalize(second.find((e) => e.eventName === "Swapped")!.args)).toMatchObject({
        listingId: id,
        buyer: strangerAddr,
        seller: sellerAddr,
        amount: 1n,
      });
      expect(await balance1155(strangerAddr, FREE_ITEM)).toBe(strangerItems + 1n);

      await buyerMarket.write.buy([id, 2n], { value: 2n * price });
      expect((await listing(id)).amount).toBe(0n);
      expect(await balance1155(marketAddr, FREE_ITEM)).toBe(0n);
      // no royalty on this item: the seller got everything
      expect(await publicClient.getBalance({ address: sellerAddr })).toBe(sellerBefore + 5n * price);
      expect(await revertOf(abi, buyerMarket.write.buy([id, 1n], { value: price }))).toEqual({
        errorName: "ListingNotActive",
        args: [id],
      });
    });

    it("refuses too little or too much payment", async () => {
      const price = parseEther("0.01");
      const { id } = await list(ROYALTY_ITEM, 3n, price);
      expect(await revertOf(abi, buyerMarket.write.buy([id, 2n], { value: price }))).toEqual({
        errorName: "WrongPayment",
        args: [2n * price, price],
      });
      expect(await revertOf(abi, buyerMarket.write.buy([id, 2n], { value: 2n * price + 1n }))).toEqual({
        errorName: "WrongPayment",
        args: [2n * price, 2n * price + 1n],
      });
      expect(await revertOf(abi, buyerMarket.write.buy([id, 1n]))).toEqual({
        errorName: "WrongPayment",
        args: [price, 0n],
      });
      expect((await listing(id)).amount).toBe(3n);
      expect(await balance1155(marketAddr, ROYALTY_ITEM)).toBe(3n);
      await sellerMarket.write.delist([id]);
    });

    it("pays no royalty for a collection without ERC-2981", async () => {
      const plain = await viem.deployContract("PlainItems", []);
      const plainAddr = plain.address.toLowerCase() as Address;
      await plain.write.mint([sellerAddr, 9n, 3n]);
      await (
        await viem.getContractAt("PlainItems", plainAddr, { client: { wallet: seller } })
      ).write.setApprovalForAll([marketAddr, true]);
      const { id } = await list(9n, 3n, 1_000n, zeroAddress, sellerMarket, plainAddr);

      const sellerBefore = await publicClient.getBalance({ address: sellerAddr });
      const events = await eventsOf(publicClient, abi, await buyerMarket.write.buy([id, 3n], { value: 3_000n }));
      expect(await publicClient.getBalance({ address: sellerAddr })).toBe(sellerBefore + 3_000n);
      expect(await balance1155(buyerAddr, 9n, plain)).toBe(3n);
      expect(normalize(events.find((e) => e.eventName === "Swapped")!.args)).toMatchObject({
        collection: plainAddr,
        tokenId: 9n,
        amount: 3n,
      });
    });

    it("reverts with PaymentFailed when the seller cannot receive the native coin", async () => {
      const rejecting = await viem.deployContract("RejectingSeller", []);
      const rejectingAddr = rejecting.address.toLowerCase() as Address;
      await sellerCollection.write.safeTransferFrom([sellerAddr, rejectingAddr, FREE_ITEM, 2n, "0x"]);
      await rejecting.write.listOn([marketAddr, collectionAddr, FREE_ITEM, 2n, 500n]);
      const id = (await market.read.listingCount()) as bigint;
      expect(await listing(id)).toMatchObject({ seller: rejectingAddr, amount: 2n });

      expect(await revertOf(abi, buyerMarket.write.buy([id, 1n], { value: 500n }))).toEqual({
        errorName: "PaymentFailed",
        args: [rejectingAddr],
      });
      expect((await listing(id)).amount).toBe(2n);
    });
  });

  describe("buying with an ERC-20", () => {
    it("pays the royalty and the seller in tokens, pulled from the buyer", async () => {
      const price = 2_500_000n; // 2.5 TUSD per unit
      const { id, events: listed } = await list(ROYALTY_ITEM, 3n, price, stablecoinAddr);
      expect(listed.find((e) => e.eventName === "ItemListed")?.args.currency).toMatch(new RegExp(stablecoinAddr, "i"));
      const total = price * 2n; // 5 TUSD
      const royalty = (total * 50n) / 1000n; // 0.25 TUSD

      const [creatorBefore, sellerBefore, buyerBefore, nativeBefore] = await Promise.all([
        tusd(creatorAddr),
        tusd(sellerAddr),
        tusd(buyerAddr),
        publicClient.getBalance({ address: sellerAddr }),
      ]);
      const events = await eventsOf(publicClient, abi, await buyerMarket.write.buy([id, 2n]));

      expect(await tusd(creatorAddr)).toBe(creatorBefore + royalty);
      expect(await tusd(sellerAddr)).toBe(sellerBefore + total - royalty);
      expect(await tusd(buyerAddr)).toBe(buyerBefore - total);
      expect(await tusd(marketAddr)).toBe(0n);
      expect(await publicClient.getBalance({ address: sellerAddr })).toBe(nativeBefore);
      expect((await listing(id)).amount).toBe(1n);

      expect(events.map((e) => e.eventName)).toEqual(["Transfer", "Transfer", "TransferSingle", "Swapped"]);
      expect(events[0].address).toBe(stablecoinAddr);
      expect(normalize(events[0].args)).toEqual({ from: buyerAddr, to: creatorAddr, value: royalty });
      expect(normalize(events[1].args)).toEqual({ from: buyerAddr, to: sellerAddr, value: total - royalty });
      expect(normalize(events[2].args)).toMatchObject({ from: marketAddr, to: buyerAddr, id: ROYALTY_ITEM, value: 2n });
      expect(normalize(events[3].args)).toEqual({
        listingId: id,
        buyer: buyerAddr,
        seller: sellerAddr,
        collection: collectionAddr,
        tokenId: ROYALTY_ITEM,
        amount: 2n,
        price,
        currency: stablecoinAddr,
      });

      // the last unit: royalty 2.5 TUSD * 5 % = 0.125 TUSD
      await buyerMarket.write.buy([id, 1n]);
      expect(await tusd(creatorAddr)).toBe(creatorBefore + royalty + 125_000n);
      expect((await listing(id)).amount).toBe(0n);
    });

    it("refuses msg.value on an ERC-20 listing, and a buyer without allowance", async () => {
      const { id } = await list(FREE_ITEM, 2n, 3n * TUSD, stablecoinAddr);
      expect(await revertOf(abi, buyerMarket.write.buy([id, 1n], { value: 3n * TUSD }))).toEqual({
        errorName: "WrongPayment",
        args: [0n, 3n * TUSD],
      });
      expect(await revertOf(abi, buyerMarket.write.buy([id, 1n], { value: 1n }))).toEqual({
        errorName: "WrongPayment",
        args: [0n, 1n],
      });
      // the stranger holds tokens (faucet test) but never approved the marketplace
      expect(await revertOf(abi, strangerMarket.write.buy([id, 1n]))).toEqual({
        errorName: "ERC20InsufficientAllowance",
        args: [marketAddr, 0n, 3n * TUSD],
      });
      expect((await listing(id)).amount).toBe(2n);

      // with no royalty the seller gets everything
      const sellerBefore = await tusd(sellerAddr);
      await buyerMarket.write.buy([id, 2n]);
      expect(await tusd(sellerAddr)).toBe(sellerBefore + 6n * TUSD);
      expect((await listing(id)).amount).toBe(0n);
    });
  });
});
