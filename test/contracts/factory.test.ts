import { beforeAll, describe, expect, it } from "vitest";
import hre from "hardhat";
import type { ContractReturnType } from "@nomicfoundation/hardhat-viem/types";
import { keccak256, stringToHex, toHex, type Abi, type Address } from "viem";
import { eventsOf, lc, normalize, projectAbi, type PublicClient, type Viem, type WalletClient } from "./helpers.ts";

const MINTER_ROLE = keccak256(toHex("MINTER_ROLE"));
const DEFAULT_ADMIN_ROLE = `0x${"00".repeat(32)}` as const;

describe("CollectionFactory", () => {
  let viem: Viem;
  let publicClient: PublicClient;
  let abi: Abi;
  let deployer: WalletClient, caller: WalletClient;
  let ownerAddr: Address, devAddr: Address, dev2Addr: Address, callerAddr: Address;
  let factory: ContractReturnType<"CollectionFactory">;

  beforeAll(async () => {
    ({ viem } = await hre.network.create());
    publicClient = await viem.getPublicClient();
    abi = await projectAbi();
    const wallets = await viem.getWalletClients();
    [deployer, caller] = wallets;
    [ownerAddr, devAddr, dev2Addr] = wallets.slice(2, 5).map((w) => w.account.address.toLowerCase() as Address);
    callerAddr = caller.account.address.toLowerCase() as Address;
    factory = await viem.deployContract("CollectionFactory", [], { client: { wallet: deployer } });
  });

  it("lets anyone create a collection, emits CollectionCreated and sets owner, admin, minters, name and uri", async () => {
    const asCaller = await viem.getContractAt("CollectionFactory", factory.address, { client: { wallet: caller } });
    const args = ["Space Cats", "https://meta.example.test/cats", ownerAddr, [devAddr, dev2Addr]] as const;
    const predicted = await asCaller.simulate.createCollection([...args], { account: caller.account.address });

    const events = await eventsOf(publicClient, abi, await asCaller.write.createCollection([...args]));
    const created = events.filter((e) => e.eventName === "CollectionCreated");
    expect(created).toHaveLength(1);
    expect(created[0].address).toBe(factory.address.toLowerCase());
    const collectionAddr = lc(created[0].args.collection) as Address;
    expect(normalize(created[0].args)).toEqual({
      collection: lc(predicted.result),
      owner: ownerAddr,
      name: "Space Cats",
      uri: "https://meta.example.test/cats",
      metadata: "0x",
    });
    // the grants of the constructor come first, from the new collection
    expect(events.map((e) => e.eventName)).toEqual([
      "RoleGranted",
      "RoleGranted",
      "RoleGranted",
      "RoleGranted",
      "CollectionCreated",
    ]);
    expect(events.slice(0, 4).every((e) => e.address === collectionAddr)).toBe(true);

    expect(await publicClient.getCode({ address: collectionAddr })).toMatch(/^0x[0-9a-f]{100,}/);
    const collection = await viem.getContractAt("Collection", collectionAddr);
    expect(await collection.read.name()).toBe("Space Cats");
    expect(await collection.read.baseUri()).toBe("https://meta.example.test/cats");
    expect(await collection.read.uri([3n])).toBe("https://meta.example.test/cats/3");
    expect(lc(await collection.read.owner())).toBe(ownerAddr);
    expect(await collection.read.itemCount()).toBe(0n);
    expect(await collection.read.hasRole([DEFAULT_ADMIN_ROLE, ownerAddr])).toBe(true);
    expect(await collection.read.hasRole([MINTER_ROLE, ownerAddr])).toBe(true);
    expect(await collection.read.hasRole([MINTER_ROLE, devAddr])).toBe(true);
    expect(await collection.read.hasRole([MINTER_ROLE, dev2Addr])).toBe(true);
    // neither the caller nor the factory gets any role
    for (const who of [callerAddr, factory.address]) {
      expect(await collection.read.hasRole([DEFAULT_ADMIN_ROLE, who])).toBe(false);
      expect(await collection.read.hasRole([MINTER_ROLE, who])).toBe(false);
    }

    // a listed developer wallet can create items right away
    const dev = await viem.getWalletClient(devAddr);
    const asDev = await viem.getContractAt("Collection", collectionAddr, { client: { wallet: dev } });
    await asDev.write.addItem([devAddr, 1n, 1n, 0n]);
    expect(await collection.read.balanceOf([devAddr, 1n])).toBe(1n);
  });

  it("carries a collection's metadata from the creating transaction into CollectionCreated", async () => {
    const metadata = stringToHex('{"genre":"Art","slug":"space-dogs"}');
    const events = await eventsOf(
      publicClient,
      abi,
      await factory.write.createCollection(["Space Dogs", "ipfs://dogs", ownerAddr, [devAddr], metadata]),
    );
    const created = events.find((e) => e.eventName === "CollectionCreated")!;
    expect(normalize(created.args)).toMatchObject({
      owner: ownerAddr,
      name: "Space Dogs",
      uri: "ipfs://dogs",
      metadata,
    });
    const collection = await viem.getContractAt("Collection", created.args.collection as Address);
    expect(await collection.read.hasRole([MINTER_ROLE, devAddr])).toBe(true);
  });

  it("deploys a distinct collection per call, also with no extra minters", async () => {
    const a = await eventsOf(publicClient, abi, await factory.write.createCollection(["A", "ipfs://a", ownerAddr, []]));
    const b = await eventsOf(publicClient, abi, await factory.write.createCollection(["B", "ipfs://b", devAddr, []]));
    const ca = a.find((e) => e.eventName === "CollectionCreated")!;
    const cb = b.find((e) => e.eventName === "CollectionCreated")!;
    expect(ca.args.collection).not.toBe(cb.args.collection);
    expect(normalize(cb.args)).toMatchObject({ owner: devAddr, name: "B", uri: "ipfs://b" });
    // owner grants only: DEFAULT_ADMIN_ROLE and MINTER_ROLE
    expect(a.filter((e) => e.eventName === "RoleGranted").map((e) => e.args.role)).toEqual([
      DEFAULT_ADMIN_ROLE,
      MINTER_ROLE,
    ]);
    const collectionB = await viem.getContractAt("Collection", cb.args.collection as Address);
    expect(await collectionB.read.name()).toBe("B");
    expect(await collectionB.read.hasRole([MINTER_ROLE, ownerAddr])).toBe(false);
  });
});
