import { beforeAll, describe, expect, it } from "vitest";
import hre from "hardhat";
import type { ContractReturnType } from "@nomicfoundation/hardhat-viem/types";
import { keccak256, stringToHex, toHex, zeroAddress, type Abi, type Address } from "viem";
import {
  eventsOf,
  lc,
  normalize,
  projectAbi,
  revertOf,
  type PublicClient,
  type Viem,
  type WalletClient,
} from "./helpers.ts";

const BASE_URI = "https://meta.example.test/heroes";
const MINTER_ROLE = keccak256(toHex("MINTER_ROLE"));
const DEFAULT_ADMIN_ROLE = `0x${"00".repeat(32)}` as const;

type Contract = ContractReturnType<"Collection">;

describe("Collection", () => {
  let viem: Viem;
  let publicClient: PublicClient;
  let abi: Abi;
  let owner: WalletClient, minter: WalletClient, stranger: WalletClient, artist: WalletClient, holder: WalletClient;
  let ownerAddr: Address, minterAddr: Address, strangerAddr: Address, artistAddr: Address, holderAddr: Address;
  /** The collection as seen by each wallet. */
  let asOwner: Contract, asMinter: Contract, asStranger: Contract, asArtist: Contract, asHolder: Contract;

  const connect = (wallet: WalletClient) => viem.getContractAt("Collection", asOwner.address, { client: { wallet } });

  /** Creates a stackable item as `who` and returns its token id (read from the ItemCreated event). */
  async function addItem(who: Contract, to: Address, initial: bigint, max: bigint, royalty: bigint): Promise<bigint> {
    const events = await eventsOf(publicClient, abi, await who.write.addItem([to, initial, max, royalty]));
    const created = events.find((e) => e.eventName === "ItemCreated");
    if (!created) throw new Error("no ItemCreated");
    return created.args.tokenId as bigint;
  }

  beforeAll(async () => {
    ({ viem } = await hre.network.create());
    publicClient = await viem.getPublicClient();
    abi = await projectAbi();
    [owner, minter, stranger, artist, holder] = await viem.getWalletClients();
    [ownerAddr, minterAddr, strangerAddr, artistAddr, holderAddr] = [owner, minter, stranger, artist, holder].map(
      (w) => w.account.address.toLowerCase() as Address,
    );
    asOwner = await viem.deployContract("Collection", ["Heroes", BASE_URI, ownerAddr, [minterAddr]], {
      client: { wallet: owner },
    });
    [asMinter, asStranger, asArtist, asHolder] = await Promise.all([minter, stranger, artist, holder].map(connect));
  });

  it("stores name, owner and base uri and grants the initial roles", async () => {
    expect(await asOwner.read.name()).toBe("Heroes");
    expect(lc(await asOwner.read.owner())).toBe(ownerAddr);
    expect(await asOwner.read.baseUri()).toBe(BASE_URI);
    expect(await asOwner.read.MINTER_ROLE()).toBe(MINTER_ROLE);
    expect(await asOwner.read.itemCount()).toBe(0n);
    expect(await asOwner.read.hasRole([DEFAULT_ADMIN_ROLE, ownerAddr])).toBe(true);
    expect(await asOwner.read.hasRole([MINTER_ROLE, ownerAddr])).toBe(true);
    expect(await asOwner.read.hasRole([MINTER_ROLE, minterAddr])).toBe(true);
    expect(await asOwner.read.hasRole([DEFAULT_ADMIN_ROLE, minterAddr])).toBe(false);
    expect(await asOwner.read.hasRole([MINTER_ROLE, strangerAddr])).toBe(false);
  });

  it("supports the ERC-165, ERC-1155, ERC-2981 and AccessControl interfaces", async () => {
    expect(await asOwner.read.supportsInterface(["0x01ffc9a7"])).toBe(true); // ERC-165
    expect(await asOwner.read.supportsInterface(["0xd9b67a26"])).toBe(true); // ERC-1155
    expect(await asOwner.read.supportsInterface(["0x0e89341c"])).toBe(true); // ERC-1155 metadata URI
    expect(await asOwner.read.supportsInterface(["0x2a55205a"])).toBe(true); // ERC-2981
    expect(await asOwner.read.supportsInterface(["0x7965db0b"])).toBe(true); // IAccessControl
    expect(await asOwner.read.supportsInterface(["0xdeadbeef"])).toBe(false);
  });

  it("creates stackable items with ids starting at 1, sequentially, emitting ItemCreated then TransferSingle", async () => {
    const predicted = await asMinter.simulate.addItem([holderAddr, 10n, 100n, 50n], {
      account: minter.account.address,
    });
    expect(predicted.result).toBe(1n);

    const events = await eventsOf(publicClient, abi, await asMinter.write.addItem([holderAddr, 10n, 100n, 50n]));
    expect(events.map((e) => e.eventName)).toEqual(["ItemCreated", "TransferSingle"]);
    expect(normalize(events[0].args)).toEqual({
      tokenId: 1n,
      creator: minterAddr,
      maxSupply: 100n,
      initialSupply: 10n,
      royaltyPerMille: 50n,
    });
    expect(normalize(events[1].args)).toEqual({
      operator: minterAddr,
      from: zeroAddress,
      to: holderAddr,
      id: 1n,
      value: 10n,
    });
    expect(events.every((e) => e.address === asOwner.address.toLowerCase())).toBe(true);

    expect(await asOwner.read.itemCount()).toBe(1n);
    expect(await asOwner.read.maxSupply([1n])).toBe(100n);
    expect(lc(await asOwner.read.creator([1n]))).toBe(minterAddr);
    expect(await asOwner.read.totalSupply([1n])).toBe(10n);
    expect(await asOwner.read.balanceOf([holderAddr, 1n])).toBe(10n);

    const second = await addItem(asOwner, ownerAddr, 1n, 1n, 0n);
    const third = await addItem(asMinter, holderAddr, 5n, 5n, 10n);
    expect([second, third]).toEqual([2n, 3n]);
    expect(await asOwner.read.itemCount()).toBe(3n);
  });

  it("creates an item with no initial supply without minting", async () => {
    const next = ((await asOwner.read.itemCount()) as bigint) + 1n;
    const events = await eventsOf(publicClient, abi, await asMinter.write.addItem([holderAddr, 0n, 7n, 0n]));
    expect(events.map((e) => e.eventName)).toEqual(["ItemCreated"]);
    expect(normalize(events[0].args)).toMatchObject({ tokenId: next, maxSupply: 7n, initialSupply: 0n });
    expect(await asOwner.read.totalSupply([next])).toBe(0n);
    expect(await asOwner.read.exists([next])).toBe(false);
  });

  it("refuses addItem from a wallet without MINTER_ROLE", async () => {
    const before = await asOwner.read.itemCount();
    expect(await revertOf(abi, asStranger.write.addItem([strangerAddr, 1n, 1n, 0n]))).toEqual({
      errorName: "AccessControlUnauthorizedAccount",
      args: [strangerAddr, MINTER_ROLE],
    });
    await expect(asStranger.write.addItems([strangerAddr, 2n, 0n])).rejects.toThrow(/AccessControlUnauthorizedAccount/);
    expect(await asOwner.read.itemCount()).toBe(before);
  });

  it("lets the admin grant and revoke MINTER_ROLE, and only the admin", async () => {
    // A minter is not an admin: it cannot hand out the role.
    expect(await revertOf(abi, asMinter.write.grantRole([MINTER_ROLE, strangerAddr]))).toEqual({
      errorName: "AccessControlUnauthorizedAccount",
      args: [minterAddr, DEFAULT_ADMIN_ROLE],
    });

    const granted = await eventsOf(publicClient, abi, await asOwner.write.grantRole([MINTER_ROLE, strangerAddr]));
    expect(granted.map((e) => e.eventName)).toEqual(["RoleGranted"]);
    expect(normalize(granted[0].args)).toEqual({ role: MINTER_ROLE, account: strangerAddr, sender: ownerAddr });
    expect(await asOwner.read.hasRole([MINTER_ROLE, strangerAddr])).toBe(true);

    const id = await addItem(asStranger, strangerAddr, 2n, 4n, 0n);
    expect(await asOwner.read.balanceOf([strangerAddr, id])).toBe(2n);
    await asStranger.write.mint([strangerAddr, id, 1n]);
    expect(await asOwner.read.totalSupply([id])).toBe(3n);

    const revoked = await eventsOf(publicClient, abi, await asOwner.write.revokeRole([MINTER_ROLE, strangerAddr]));
    expect(revoked.map((e) => e.eventName)).toEqual(["RoleRevoked"]);
    expect(normalize(revoked[0].args)).toEqual({ role: MINTER_ROLE, account: strangerAddr, sender: ownerAddr });
    expect(await asOwner.read.hasRole([MINTER_ROLE, strangerAddr])).toBe(false);

    await expect(asStranger.write.addItem([strangerAddr, 1n, 1n, 0n])).rejects.toThrow(
      /AccessControlUnauthorizedAccount/,
    );
    // Still the creator of `id`, so minting more of it stays allowed; a foreign id is not.
    await asStranger.write.mint([strangerAddr, id, 1n]);
    expect(await asOwner.read.totalSupply([id])).toBe(4n);
    expect(await revertOf(abi, asStranger.write.mint([strangerAddr, 1n, 1n]))).toEqual({
      errorName: "NotMinterOrCreator",
      args: [1n, strangerAddr],
    });
  });

  it("enforces the supply cap on addItem", async () => {
    const next = ((await asOwner.read.itemCount()) as bigint) + 1n;
    expect(await revertOf(abi, asMinter.write.addItem([holderAddr, 11n, 10n, 0n]))).toEqual({
      errorName: "SupplyAboveMax",
      args: [next, 11n, 10n],
    });
    expect(await revertOf(abi, asMinter.write.addItem([holderAddr, 0n, 0n, 0n]))).toEqual({
      errorName: "SupplyAboveMax",
      args: [next, 0n, 0n],
    });
    expect(await asOwner.read.itemCount()).toBe(next - 1n);
    // initial == max is fine
    expect(await addItem(asMinter, holderAddr, 10n, 10n, 0n)).toBe(next);
    expect(await asOwner.read.totalSupply([next])).toBe(10n);
  });

  it("mints more supply up to the cap and refuses beyond it", async () => {
    const id = await addItem(asMinter, holderAddr, 3n, 10n, 0n);
    const events = await eventsOf(publicClient, abi, await asOwner.write.mint([ownerAddr, id, 6n]));
    expect(events.map((e) => e.eventName)).toEqual(["TransferSingle"]);
    expect(normalize(events[0].args)).toEqual({ operator: ownerAddr, from: zeroAddress, to: ownerAddr, id, value: 6n });
    expect(await asOwner.read.totalSupply([id])).toBe(9n);

    expect(await revertOf(abi, asMinter.write.mint([holderAddr, id, 2n]))).toEqual({
      errorName: "SupplyAboveMax",
      args: [id, 11n, 10n],
    });
    await asMinter.write.mint([holderAddr, id, 1n]);
    expect(await asOwner.read.totalSupply([id])).toBe(10n);
    expect(await revertOf(abi, asMinter.write.mint([holderAddr, id, 1n]))).toEqual({
      errorName: "SupplyAboveMax",
      args: [id, 11n, 10n],
    });
  });

  it("refuses minting zero or an unknown token", async () => {
    expect(await revertOf(abi, asMinter.write.mint([holderAddr, 1n, 0n]))).toEqual({
      errorName: "InvalidAmount",
      args: [],
    });
    const unknown = ((await asOwner.read.itemCount()) as bigint) + 1n;
    expect(await revertOf(abi, asMinter.write.mint([holderAddr, unknown, 1n]))).toEqual({
      errorName: "UnknownToken",
      args: [unknown],
    });
    expect(await revertOf(abi, asMinter.write.mint([holderAddr, 0n, 1n]))).toEqual({
      errorName: "UnknownToken",
      args: [0n],
    });
  });

  it("lets a creator without MINTER_ROLE mint more of their own item only", async () => {
    await asOwner.write.grantRole([MINTER_ROLE, artistAddr]);
    const own = await addItem(asArtist, artistAddr, 1n, 5n, 25n);
    await asOwner.write.revokeRole([MINTER_ROLE, artistAddr]);
    expect(await asOwner.read.hasRole([MINTER_ROLE, artistAddr])).toBe(false);
    expect(lc(await asOwner.read.creator([own]))).toBe(artistAddr);

    await asArtist.write.mint([holderAddr, own, 4n]);
    expect(await asOwner.read.balanceOf([holderAddr, own])).toBe(4n);
    expect(await asOwner.read.totalSupply([own])).toBe(5n);
    expect(await revertOf(abi, asArtist.write.mint([holderAddr, own, 1n]))).toEqual({
      errorName: "SupplyAboveMax",
      args: [own, 6n, 5n],
    });
    expect(await revertOf(abi, asArtist.write.mint([artistAddr, 1n, 1n]))).toEqual({
      errorName: "NotMinterOrCreator",
      args: [1n, artistAddr],
    });
    // the holder of tokens is not their creator
    expect(await revertOf(abi, asHolder.write.mint([holderAddr, own, 1n]))).toMatchObject({
      errorName: "NotMinterOrCreator",
    });
  });

  it("caps royalties below 300 per mille and reports ERC-2981 royalties in per mille", async () => {
    expect(await revertOf(abi, asMinter.write.addItem([holderAddr, 1n, 1n, 300n]))).toEqual({
      errorName: "RoyaltyTooHigh",
      args: [300n],
    });
    expect(await revertOf(abi, asMinter.write.addItem([holderAddr, 1n, 1n, 1000n]))).toEqual({
      errorName: "RoyaltyTooHigh",
      args: [1000n],
    });
    expect(await revertOf(abi, asMinter.write.addItems([holderAddr, 2n, 300n]))).toEqual({
      errorName: "RoyaltyTooHigh",
      args: [300n],
    });

    const max = await addItem(asMinter, holderAddr, 1n, 1n, 299n);
    expect(await asOwner.read.royaltyInfo([max, 10_000n])).toEqual([
      expect.stringMatching(new RegExp(minterAddr, "i")),
      2_990n,
    ]);
    const [receiver, amount] = (await asOwner.read.royaltyInfo([max, 1_000_000n])) as readonly [Address, bigint];
    expect(lc(receiver)).toBe(minterAddr);
    expect(amount).toBe(299_000n);

    // item 1 was created by the minter with 50 per mille = 5%
    const [r1, a1] = (await asOwner.read.royaltyInfo([1n, 2_000n])) as readonly [Address, bigint];
    expect([lc(r1), a1]).toEqual([minterAddr, 100n]);

    // royalty 0: nothing is owed
    const free = await addItem(asOwner, holderAddr, 1n, 1n, 0n);
    const [, none] = (await asOwner.read.royaltyInfo([free, 10n ** 18n])) as readonly [Address, bigint];
    expect(none).toBe(0n);
  });

  it("creates non-stackable items in one batch: one ItemCreated per id and one TransferBatch", async () => {
    const first = ((await asOwner.read.itemCount()) as bigint) + 1n;
    const predicted = await asMinter.simulate.addItems([holderAddr, 3n, 120n], { account: minter.account.address });
    expect(predicted.result).toBe(first);

    const events = await eventsOf(publicClient, abi, await asMinter.write.addItems([holderAddr, 3n, 120n]));
    const ids = [first, first + 1n, first + 2n];
    expect(events.map((e) => e.eventName)).toEqual(["ItemCreated", "ItemCreated", "ItemCreated", "TransferBatch"]);
    ids.forEach((id, i) => {
      expect(normalize(events[i].args)).toEqual({
        tokenId: id,
        creator: minterAddr,
        maxSupply: 1n,
        initialSupply: 1n,
        royaltyPerMille: 120n,
      });
    });
    expect(normalize(events[3].args)).toEqual({
      operator: minterAddr,
      from: zeroAddress,
      to: holderAddr,
      ids,
      values: [1n, 1n, 1n],
    });

    expect(await asOwner.read.itemCount()).toBe(first + 2n);
    for (const id of ids) {
      expect(await asOwner.read.maxSupply([id])).toBe(1n);
      expect(await asOwner.read.totalSupply([id])).toBe(1n);
      expect(lc(await asOwner.read.creator([id]))).toBe(minterAddr);
      const [receiver, royalty] = (await asOwner.read.royaltyInfo([id, 1_000n])) as readonly [Address, bigint];
      expect([lc(receiver), royalty]).toEqual([minterAddr, 120n]);
    }
    expect(await asOwner.read.balanceOfBatch([[holderAddr, holderAddr, holderAddr], ids])).toEqual([1n, 1n, 1n]);

    // one of a kind: no more can be minted
    expect(await revertOf(abi, asMinter.write.mint([holderAddr, first, 1n]))).toEqual({
      errorName: "SupplyAboveMax",
      args: [first, 2n, 1n],
    });
    expect(await revertOf(abi, asMinter.write.addItems([holderAddr, 0n, 0n]))).toEqual({
      errorName: "InvalidAmount",
      args: [],
    });
    expect(await asOwner.read.itemCount()).toBe(first + 2n);
  });

  it("describes an item in the transaction that creates it: ItemDescribed once, after its ids, with the metadata as given", async () => {
    const metadata = stringToHex('{"name":"Lantern"}');
    const stackable = ((await asOwner.read.itemCount()) as bigint) + 1n;
    const one = await eventsOf(publicClient, abi, await asMinter.write.addItem([holderAddr, 2n, 5n, 0n, metadata]));
    expect(one.map((e) => e.eventName)).toEqual(["ItemCreated", "TransferSingle", "ItemDescribed"]);
    expect(normalize(one[2].args)).toEqual({ firstTokenId: stackable, count: 1n, stackable: true, metadata });
    expect(one[2].address).toBe(asOwner.address.toLowerCase());

    const first = stackable + 1n;
    const three = await eventsOf(publicClient, abi, await asMinter.write.addItems([holderAddr, 3n, 0n, metadata]));
    expect(three.map((e) => e.eventName)).toEqual([
      "ItemCreated",
      "ItemCreated",
      "ItemCreated",
      "TransferBatch",
      "ItemDescribed",
    ]);
    expect(normalize(three[4].args)).toEqual({ firstTokenId: first, count: 3n, stackable: false, metadata });
    expect(await asOwner.read.itemCount()).toBe(first + 2n);

    // Without a minter role, nothing is described (nor created).
    expect(await revertOf(abi, asStranger.write.addItem([strangerAddr, 1n, 1n, 0n, metadata]))).toMatchObject({
      errorName: "AccessControlUnauthorizedAccount",
    });
    // The plain functions describe nothing: an indexer knows such items by their chain facts only.
    const plain = await eventsOf(publicClient, abi, await asMinter.write.addItem([holderAddr, 1n, 1n, 0n]));
    expect(plain.map((e) => e.eventName)).toEqual(["ItemCreated", "TransferSingle"]);
  });

  it("lets a holder burn (consume) items and refuses a stranger", async () => {
    const id = await addItem(asMinter, holderAddr, 5n, 5n, 0n);

    const events = await eventsOf(publicClient, abi, await asHolder.write.burn([holderAddr, id, 2n]));
    expect(events.map((e) => e.eventName)).toEqual(["TransferSingle"]);
    expect(normalize(events[0].args)).toEqual({
      operator: holderAddr,
      from: holderAddr,
      to: zeroAddress,
      id,
      value: 2n,
    });
    expect(await asOwner.read.balanceOf([holderAddr, id])).toBe(3n);
    expect(await asOwner.read.totalSupply([id])).toBe(3n);

    expect(await revertOf(abi, asStranger.write.burn([holderAddr, id, 1n]))).toEqual({
      errorName: "ERC1155MissingApprovalForAll",
      args: [strangerAddr, holderAddr],
    });
    expect(await revertOf(abi, asStranger.write.burnBatch([holderAddr, [id], [1n]]))).toEqual({
      errorName: "ERC1155MissingApprovalForAll",
      args: [strangerAddr, holderAddr],
    });
    expect(await revertOf(abi, asHolder.write.burn([holderAddr, id, 4n]))).toEqual({
      errorName: "ERC1155InsufficientBalance",
      args: [holderAddr, 3n, 4n, id],
    });

    // an approved operator may burn, and burnBatch works
    await asHolder.write.setApprovalForAll([strangerAddr, true]);
    await asStranger.write.burn([holderAddr, id, 1n]);
    const batch = await eventsOf(publicClient, abi, await asHolder.write.burnBatch([holderAddr, [id, 1n], [1n, 1n]]));
    expect(batch.map((e) => e.eventName)).toEqual(["TransferBatch"]);
    expect(normalize(batch[0].args)).toMatchObject({
      from: holderAddr,
      to: zeroAddress,
      ids: [id, 1n],
      values: [1n, 1n],
    });
    await asHolder.write.setApprovalForAll([strangerAddr, false]);
    expect(await asOwner.read.balanceOf([holderAddr, id])).toBe(1n);
    expect(await asOwner.read.totalSupply([id])).toBe(1n);
  });

  it("builds token uris from the base uri", async () => {
    expect(await asOwner.read.uri([1n])).toBe(`${BASE_URI}/1`);
    expect(await asOwner.read.uri([42n])).toBe(`${BASE_URI}/42`);
    const other = await viem.deployContract("Collection", ["Empty", "ipfs://cid", ownerAddr, []]);
    expect(await other.read.uri([7n])).toBe("ipfs://cid/7");
  });
});
