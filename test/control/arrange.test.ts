import type { Address } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Simulator } from "../../src/simulator/simulator.ts";
import { call, chainHeads, DEMO_KEYS, expectErrorBody, mintItem, postJson, startDemo } from "../harness.ts";
import { digestOf, everyAnswer, setBalanceBehindTheIndex } from "./world-answers.ts";

// POST /_sim/scenario: a fragment of the scenario format applied to the running demo world, all or
// nothing, over real HTTP; GET /_sim/world names what it holds.

let sim: Simulator;
beforeAll(async () => {
  sim = await startDemo();
});
afterAll(() => sim?.close());

const arrange = (fragment: unknown) => postJson(sim, "/_sim/scenario", fragment);
const world = async () => (await call(sim, "/_sim/world")).body;
const history = async (collection: string, tokenId: number) =>
  (await call(sim, `/api/v2/item/events/${collection}/${tokenId}?perPage=100`)).body.events as {
    event: string;
    from: string;
    to: string;
    amount: string;
    transactionHash: string;
    timestamp: number;
  }[];

describe("GET /_sim/world", () => {
  it("names the accounts with their API keys, each chain's contracts, the collections, items and listings", async () => {
    const answer = await world();
    expect(answer.chains.map((chain: { chainId: number }) => chain.chainId)).toEqual([56, 137]);
    expect(answer.chains[0].contracts).toEqual({
      factory: sim.chains.get(56)!.contracts.factory,
      marketplace: sim.chains.get(56)!.contracts.marketplace,
      stablecoin: sim.chains.get(56)!.contracts.stablecoin,
    });
    expect(Object.keys(answer.accounts)).toEqual(["alice", "arcade", "bob", "guest", "studio"]);
    expect(answer.accounts.studio).toEqual({
      address: sim.accounts.byApiKey(DEMO_KEYS.studio)!.wallet,
      apiKey: DEMO_KEYS.studio,
    });
    expect(answer.accounts.bob.apiKey).toBeUndefined();
    const riders = (await call(sim, `/api/v2/collection/${answer.collections["dragon-riders"].address}`)).body;
    expect(answer.collections["dragon-riders"]).toEqual({
      chainId: 56,
      address: riders.collection.address,
      slug: "dragon-riders",
    });
    expect(answer.items["dragon-egg"]).toEqual({
      chainId: 56,
      collection: riders.collection.address,
      tokenIds: [2, 3, 4],
    });
    expect(answer.listings).toMatchObject({
      "sky-saddle-sale": { chainId: 56, listingId: 1 },
      "nitro-boost-sale": { chainId: 137, listingId: 1 },
    });
    // Every bob the world names is the wallet its history shows.
    const saddle = answer.items["sky-saddle"];
    const sold = (await history(saddle.collection, saddle.tokenIds[0])).find((event) => event.event === "Swapped")!;
    expect(sold.to).toBe(answer.accounts.bob.address);
  });
});

describe("POST /_sim/scenario", () => {
  it("applies every action kind, resolving each new handle; the histories and the collections show each entry", async () => {
    const fragment = {
      accounts: [{ name: "carol" }],
      apiKeys: [{ key: "carol-key", account: "carol" }],
      collections: [{ id: "star-forge", chainId: 56, name: "Star Forge", owner: "studio", minters: ["arcade"] }],
      items: [
        {
          id: "star-gem",
          collection: "star-forge",
          name: "Star Gem",
          imageUrl: "/images/star-gem.png",
          initialSupply: 10,
          maximumSupply: 20,
        },
        { id: "star-card", collection: "star-forge", name: "Star Card", isStackable: false, initialSupply: 3 },
        { id: "rider-cape", collection: "dragon-riders", name: "Rider Cape", initialSupply: 4 },
      ],
      timeline: [
        { action: "addItem", item: "star-gem", by: "studio", to: "alice" },
        { action: "addItem", item: "star-card", by: "arcade", to: "bob" },
        { action: "addItem", item: "rider-cape", by: "arcade", to: "carol" },
        { action: "mint", item: "star-gem", by: "studio", to: "carol", amount: 5 },
        { action: "transfer", item: "star-gem", from: "alice", to: "bob", amount: 2 },
        {
          action: "transferBatch",
          from: "bob",
          to: "carol",
          items: [
            { item: "star-gem", amount: 1 },
            { item: "star-card", copy: 2, amount: 1 },
          ],
        },
        { action: "burn", item: "star-gem", from: "carol", amount: 1 },
        {
          action: "list",
          listing: "gem-sale",
          item: "star-gem",
          seller: "alice",
          amount: 3,
          price: "0.5",
          currency: "native",
        },
        { action: "updatePrice", listing: "gem-sale", price: "0.25" },
        { action: "addToListing", listing: "gem-sale", amount: 2 },
        { action: "removeFromListing", listing: "gem-sale", amount: 1 },
        { action: "buy", listing: "gem-sale", buyer: "carol", amount: 2 },
        {
          action: "list",
          listing: "card-sale",
          item: "star-card",
          copy: 3,
          seller: "bob",
          amount: 1,
          price: "7",
          currency: "stablecoin",
        },
        { action: "buy", listing: "card-sale", buyer: "alice", amount: 1, at: "+1h" },
        { action: "buy", listing: "sky-saddle-sale", buyer: "carol", amount: 1, at: "+2h" },
        { action: "delist", listing: "gem-sale", at: "+2h" },
      ],
    };
    const riders = (await world()).collections["dragon-riders"].address as string;
    const ridersBefore = (await call(sim, `/api/v2/collection/${riders}`)).body.collection;
    const { status, body } = await arrange(fragment);
    expect(status, JSON.stringify(body)).toBe(200);

    const forge = body.collections["star-forge"];
    expect(forge).toMatchObject({ chainId: 56, slug: "star-forge", txHash: expect.stringMatching(/^0x[0-9a-f]{64}$/) });
    expect(body.items["star-gem"]).toMatchObject({ chainId: 56, collection: forge.address, tokenIds: [1] });
    expect(body.items["star-card"]).toMatchObject({ collection: forge.address, tokenIds: [2, 3, 4] });
    expect(body.items["rider-cape"]).toMatchObject({ collection: riders, tokenIds: [5] });
    expect(body.listings).toEqual({
      "gem-sale": { chainId: 56, listingId: 3 },
      "card-sale": { chainId: 56, listingId: 4 },
    });
    expect(body.accounts.carol).toEqual({ address: expect.stringMatching(/^0x[0-9a-f]{40}$/), apiKey: "carol-key" });
    expect(body.timeline).toHaveLength(fragment.timeline.length);
    expect(body.timeline.map((entry: { action: string }) => entry.action)).toEqual(
      fragment.timeline.map((entry) => entry.action),
    );
    expect(body.timeline[12].timestamp).toBe(body.now);
    expect(body.timeline[13].timestamp).toBe(body.now + 3_600);
    expect(body.timeline[15].timestamp).toBe(body.now + 7_200);

    // Each entry's own transaction is in the history of the item it acted on, as the events it is.
    const { address: carol } = body.accounts.carol;
    const handles = await world();
    const { alice } = handles.accounts;
    const gem = await history(forge.address, 1);
    const kindsOf = (events: typeof gem, entry: number) =>
      events
        .filter((event) => event.transactionHash === body.timeline[entry].txHash)
        .map((event) => event.event)
        .sort();
    expect(kindsOf(gem, 0)).toEqual(["TransferSingle"]);
    expect(kindsOf(gem, 3)).toEqual(["TransferSingle"]);
    expect(kindsOf(gem, 4)).toEqual(["TransferSingle"]);
    expect(kindsOf(gem, 5)).toEqual(["TransferBatch"]);
    expect(kindsOf(gem, 6)).toEqual(["TransferSingle"]);
    expect(kindsOf(gem, 7)).toEqual(["ItemListed", "TransferSingle"]);
    expect(kindsOf(gem, 8)).toEqual(["ItemPriceUpdated"]);
    expect(kindsOf(gem, 9)).toEqual(["ItemAdded", "TransferSingle"]);
    expect(kindsOf(gem, 10)).toEqual(["ItemRemoved", "TransferSingle"]);
    expect(kindsOf(gem, 11)).toEqual(["Swapped", "TransferSingle"]);
    expect(kindsOf(gem, 15)).toEqual(["ItemDelisted", "TransferSingle"]);
    expect(gem.find((event) => event.transactionHash === body.timeline[3].txHash)).toMatchObject({
      to: carol,
      amount: "5",
    });
    expect(gem.find((event) => event.event === "Swapped")).toMatchObject({
      from: alice.address,
      to: carol,
      amount: "2",
      price: 0.25,
    });
    expect(
      gem.find(
        (event) => event.event === "TransferSingle" && event.to === "0x0000000000000000000000000000000000000000",
      ),
    ).toMatchObject({ from: carol, amount: "1" });
    expect(kindsOf(await history(forge.address, 3), 5)).toEqual(["TransferBatch"]);
    expect(kindsOf(await history(forge.address, 4), 13)).toEqual(["Swapped", "TransferSingle"]);
    const cape = await history(riders, 5);
    expect(cape).toMatchObject([{ event: "TransferSingle", to: carol, amount: "4", timestamp: body.now }]);
    const saddle = handles.items["sky-saddle"];
    const saddleSale = (await history(saddle.collection, saddle.tokenIds[0])).find(
      (event) => event.transactionHash === body.timeline[14].txHash && event.event === "Swapped",
    );
    expect(saddleSale).toMatchObject({
      from: alice.address,
      to: carol,
      amount: "1",
      price: 0.4,
      timestamp: body.now + 7_200,
    });

    // The collections: who holds what (listed tokens count for their seller), and the sales' worth.
    // A path on the simulator goes on chain as a URL under its base, as the world's own images do.
    expect((await call(sim, "/metadata/56/star-forge/1")).body).toMatchObject({
      name: "Star Gem",
      image: `${sim.url}/images/star-gem.png`,
      maximumSupply: 20,
    });
    const forged = (await call(sim, `/api/v2/collection/${forge.address}`)).body.collection;
    expect(forged).toMatchObject({
      name: "Star Forge",
      holders: 3,
      volume_all: 128.53,
      ownerAddress: handles.accounts.studio.address,
    });
    const ridersAfter = (await call(sim, `/api/v2/collection/${riders}`)).body.collection;
    expect(ridersAfter.volume_all).toBeCloseTo(ridersBefore.volume_all + 97.22, 2);
    expect(ridersAfter.holders).toBe(ridersBefore.holders + 1);
    const items = (await call(sim, `/_sim/collections/${forge.address}/items`)).body.items;
    expect(items.map(({ tokenId, supply }: { tokenId: number; supply: string }) => [tokenId, supply])).toEqual([
      [1, "14"],
      [2, "1"],
      [3, "1"],
      [4, "1"],
    ]);
    // The chain's clock moved to the last entry's time; the other chain's did not.
    const clocks = (await call(sim, "/_sim/time")).body.chains;
    expect(clocks.find((clock: { chainId: number }) => clock.chainId === 56).timestamp).toBe(body.now + 7_200);
    expect(clocks.find((clock: { chainId: number }) => clock.chainId === 137).timestamp).toBeLessThan(body.now + 7_200);
    // The world names what the fragment added, and the new API key is carol's wallet.
    expect(handles.accounts.carol).toEqual({ address: carol, apiKey: "carol-key" });
    expect(handles.items["star-card"].tokenIds).toEqual([2, 3, 4]);
    expect(handles.listings["card-sale"]).toEqual({ chainId: 56, listingId: 4 });
    expect(sim.accounts.byApiKey("carol-key")!.wallet).toBe(carol);
  });

  it("refuses bad input before anything is sent: 400 naming paths and handles, 422 naming the entry and the rule", async () => {
    const heads = await chainHeads(sim);
    const before = await world();
    const refusals: [unknown, number, string, RegExp[]][] = [
      [
        { collections: [{ id: "x", name: "" }], timeline: [{ action: "list", item: 5 }], chains: [56] },
        400,
        "VALIDATION_FAILED",
        [
          /^collections\[0\]\.chainId is required$/,
          /^collections\[0\]\.name /,
          /^timeline\[0\]\.item /,
          /^chains is not a known field$/,
        ],
      ],
      [
        { timeline: [{ action: "fly" }] },
        400,
        "VALIDATION_FAILED",
        [/^timeline\[0\]\.action must be one of: addItem, /],
      ],
      [
        { timeline: [{ action: "transfer", item: "no-such-item", from: "alice", to: "zed", amount: 1 }] },
        400,
        "VALIDATION_FAILED",
        [/^timeline\[0\]\.item: unknown item 'no-such-item'$/, /^timeline\[0\]\.to: unknown account 'zed'$/],
      ],
      [
        { items: [{ id: "sky-saddle", collection: "dragon-riders", name: "Again", initialSupply: 1 }] },
        400,
        "VALIDATION_FAILED",
        [/^items\[0\]\.id: the world already has an item 'sky-saddle'$/],
      ],
      [
        { timeline: [{ action: "delist", listing: "healing-brew-sale" }] },
        400,
        "VALIDATION_FAILED",
        [/already closed/],
      ],
      [
        { timeline: [{ action: "transfer", item: "sky-saddle", from: "alice", to: "bob", amount: 1, at: "-1h" }] },
        400,
        "VALIDATION_FAILED",
        [/^timeline\[0\]\.at: '-1h' is before now/],
      ],
      [
        { timeline: [{ action: "transfer", item: "sky-saddle", from: "alice", to: "bob", amount: 50 }] },
        422,
        "CONTRACT_RULE",
        [/^timeline\[0\]\.amount: 'alice' holds \d+ of item 'sky-saddle', not 50$/],
      ],
      [
        {
          items: [{ id: "guest-hat", collection: "dragon-riders", name: "Hat", initialSupply: 1 }],
          timeline: [{ action: "addItem", item: "guest-hat", by: "guest", to: "guest" }],
        },
        422,
        "CONTRACT_RULE",
        [/^timeline\[0\]\.by: 'guest' does not hold the minter role on collection 'dragon-riders'$/],
      ],
      [
        { timeline: [{ action: "mint", item: "sky-saddle", by: "studio", to: "bob", amount: 91 }] },
        422,
        "CONTRACT_RULE",
        [
          /^timeline\[0\]\.amount: minting 91 more of item 'sky-saddle' \(10 of at most 100\) passes its maximum supply$/,
        ],
      ],
    ];
    for (const [fragment, status, code, lines] of refusals) {
      const answer = await arrange(fragment);
      expect([answer.status, answer.body.errors], JSON.stringify(fragment)).toEqual([status, expect.any(Array)]);
      expectErrorBody(answer.body, code);
      for (const line of lines)
        expect(answer.body.errors, JSON.stringify(fragment)).toContainEqual(expect.stringMatching(line));
    }
    expect(await chainHeads(sim)).toEqual(heads);
    expect(await world()).toEqual(before);
  });

  it("goes back whole when the third entry reverts: every answer byte-identical, the reason named, the world usable", async () => {
    const handles = await world();
    const saddle = handles.items["sky-saddle"];
    const alice = handles.accounts.alice.address as Address;
    await setBalanceBehindTheIndex(
      sim,
      56,
      { collection: saddle.collection, tokenId: BigInt(saddle.tokenIds[0]) },
      alice,
      0n,
    );
    const before = await everyAnswer(sim);
    const heads = await chainHeads(sim);
    const fragment = {
      items: [{ id: "doomed-gem", collection: "dragon-riders", name: "Doomed Gem", initialSupply: 2 }],
      timeline: [
        { action: "addItem", item: "doomed-gem", by: "studio", to: "bob" },
        { action: "transfer", item: "dragon-egg", copy: 1, from: "bob", to: "alice", amount: 1 },
        { action: "transfer", item: "sky-saddle", from: "alice", to: "bob", amount: 1 },
        { action: "transfer", item: "doomed-gem", from: "bob", to: "alice", amount: 1, at: "+1h" },
      ],
    };
    const { status, body } = await arrange(fragment);
    expect(status).toBe(422);
    expectErrorBody(body, "CONTRACT_RULE");
    expect(body.errors).toEqual([expect.stringMatching(/^timeline\[2\] \(transfer\): .*ERC1155InsufficientBalance/)]);
    const after = await everyAnswer(sim);
    expect(digestOf(after)).toBe(digestOf(before));
    expect(after).toEqual(before);
    expect(await chainHeads(sim)).toEqual(heads);
    // The same first two entries alone go through.
    const { status: retried } = await arrange({ ...fragment, timeline: fragment.timeline.slice(0, 2) });
    expect(retried).toBe(200);
  });

  it("keeps a mint sent while a fragment is applied out of it: the fragment goes back, the mint stays", async () => {
    const handles = await world();
    const riders = handles.collections["dragon-riders"].address;
    const egg = handles.items["dragon-egg"];
    await setBalanceBehindTheIndex(
      sim,
      56,
      { collection: egg.collection, tokenId: BigInt(egg.tokenIds[2]) },
      handles.accounts.bob.address,
      0n,
    );
    const timeline = [
      { action: "transfer", item: "sky-saddle", from: "bob", to: "alice", amount: 1 },
      // Few blocks: see setBalanceBehindTheIndex.
      ...Array.from({ length: 8 }, (_, i) => ({
        action: "transfer",
        item: "healing-brew",
        from: i % 2 ? "alice" : "bob",
        to: i % 2 ? "bob" : "alice",
        amount: 1,
      })),
      { action: "transfer", item: "dragon-egg", copy: 3, from: "bob", to: "alice", amount: 1 },
    ];
    const applying = arrange({ timeline });
    const minting = mintItem(sim, { collection: riders, chainId: 56, item: { name: "Meanwhile" } });
    const [applied, minted] = await Promise.all([applying, minting]);
    expect(applied.status).toBe(422);
    expect(applied.body.errors[0]).toMatch(/^timeline\[9\] \(transfer\)/);
    expect(minted.status, JSON.stringify(minted.body)).toBe(200);
    const [tokenId] = minted.body.tokenIds;
    expect(await history(riders, tokenId)).toMatchObject([
      { event: "TransferSingle", transactionHash: minted.body.txHash },
    ]);
    expect((await call(sim, `/_sim/collections/${riders}/items`)).body.items.at(-1)).toMatchObject({
      tokenId,
      name: "Meanwhile",
    });
  });

  it("goes back with a snapshot and a reset: the handles with the chains", async () => {
    const { body: snapshot } = await postJson(sim, "/_sim/snapshots", {});
    const before = await world();
    const { status } = await arrange({
      collections: [{ id: "later-shelf", chainId: 137, name: "Later Shelf", owner: "studio" }],
      items: [{ id: "later-tile", collection: "later-shelf", name: "Tile", initialSupply: 1 }],
      timeline: [{ action: "addItem", item: "later-tile", by: "studio", to: "bob" }],
    });
    expect(status).toBe(200);
    expect((await world()).items["later-tile"]).toBeDefined();
    expect((await postJson(sim, `/_sim/snapshots/${snapshot.id}/revert`, {})).status).toBe(200);
    expect(await world()).toEqual(before);
    expect((await postJson(sim, "/_sim/reset", {})).status).toBe(200);
    const reset = await world();
    expect(reset.accounts.carol).toBeUndefined();
    expect(reset.collections["star-forge"]).toBeUndefined();
    expect(Object.keys(reset.listings).sort()).toEqual([
      "harbor-tile-sale",
      "healing-brew-sale",
      "nitro-boost-sale",
      "sky-saddle-sale",
    ]);
  });
});
