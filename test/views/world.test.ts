import { expect, it } from "vitest";
import type { Address, Hex } from "viem";
import { WorldHandles } from "../../src/core/handles.ts";
import { worldView } from "../../src/views/world.ts";
import { ALICE, BOB, CAROL, COLLECTION, FACTORY, MARKETPLACE, OTHER_COLLECTION, STABLECOIN } from "../indexer/logs.ts";

const key = (n: number) => `0x${String(n).padStart(64, "0")}` as Hex;

it("the world by handle, each map in name order: accounts (with the API key of those that have one), contracts, collections, items, listings", () => {
  const handles = new WorldHandles([
    ["bob", { address: BOB, key: key(2) }],
    ["carol", { address: CAROL, key: key(3) }],
    ["alice", { address: ALICE, key: key(1) }],
  ]);
  handles.collections.set("cards", { chainId: 56, address: COLLECTION, slug: "cards" });
  handles.collections.set("art", { chainId: 137, address: OTHER_COLLECTION, slug: "art" });
  handles.items.set("sword", { chainId: 56, collection: COLLECTION, tokenIds: [1n] });
  handles.items.set("cape", { chainId: 56, collection: COLLECTION, tokenIds: [4n] });
  handles.items.set("badge", { chainId: 56, collection: COLLECTION, tokenIds: [2n, 3n] });
  handles.listings.set("sale", { chainId: 56, listingId: 7n });
  handles.listings.set("auction", { chainId: 137, listingId: 1n });
  const view = worldView(
    [
      {
        chainId: 56,
        contracts: { factory: FACTORY, marketplace: MARKETPLACE, stablecoin: STABLECOIN, extra: BOB } as never,
      },
    ],
    [{ apiKey: "alice-key", name: "alice", walletKey: key(1), wallet: ALICE as Address }],
    handles,
  );
  expect(view).toStrictEqual({
    chains: [{ chainId: 56, contracts: { factory: FACTORY, marketplace: MARKETPLACE, stablecoin: STABLECOIN } }],
    accounts: { alice: { address: ALICE, apiKey: "alice-key" }, bob: { address: BOB }, carol: { address: CAROL } },
    collections: {
      art: { chainId: 137, address: OTHER_COLLECTION, slug: "art" },
      cards: { chainId: 56, address: COLLECTION, slug: "cards" },
    },
    items: {
      badge: { chainId: 56, collection: COLLECTION, tokenIds: [2, 3] },
      cape: { chainId: 56, collection: COLLECTION, tokenIds: [4] },
      sword: { chainId: 56, collection: COLLECTION, tokenIds: [1] },
    },
    listings: { auction: { chainId: 137, listingId: 1 }, sale: { chainId: 56, listingId: 7 } },
  });
  for (const map of [view.accounts, view.collections, view.items, view.listings])
    expect(Object.keys(map)).toEqual(Object.keys(map).sort());
  expect(Object.keys(view.accounts)).toEqual(["alice", "bob", "carol"]);
  expect(Object.keys(view.items)).toEqual(["badge", "cape", "sword"]);
});

it("an empty world", () => {
  expect(worldView([], [], new WorldHandles())).toEqual({
    chains: [],
    accounts: {},
    collections: {},
    items: {},
    listings: {},
  });
});
