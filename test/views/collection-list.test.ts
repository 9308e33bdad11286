import { zeroAddress, type Address } from "viem";
import { describe, expect, it } from "vitest";
import { advanceHead, applyLogs } from "../../src/indexer/apply.ts";
import { emptyModels, type ChainModels } from "../../src/indexer/models.ts";
import { encodeCollectionDescription } from "../../src/metadata/codec.ts";
import type { CollectionsQuery } from "../../src/schemas/collection.ts";
import { listCollections, orderedViews } from "../../src/views/collection-list.ts";
import { collectionViews } from "../../src/views/collections.ts";
import { ALICE, BOB, CAROL, chainFacts, createCollection, LogBook } from "../indexer/logs.ts";

const A: Address = "0xaaaa000000000000000000000000000000000001";
const B: Address = "0xbbbb000000000000000000000000000000000002";
const C: Address = "0xcccc000000000000000000000000000000000003";

/** Chain 137's B is not verified. */
const unverified = encodeCollectionDescription("Cards", {
  description: "",
  genre: "",
  image: "",
  imageHash: "",
  slug: "b",
  website: "",
  isVerified: false,
});

/** Collections with the given holders each, created in the order given (later ones are newer). */
function chain(chainId: number, holders: [Address, Address[]][]): ChainModels {
  const book = new LogBook();
  for (const [collection] of holders)
    createCollection(
      book,
      collection,
      collection === A ? BOB : ALICE,
      chainId === 137 && collection === B ? unverified : "0x",
    );
  for (const [collection, owners] of holders)
    owners.forEach((to, i) =>
      book.add("TransferSingle", collection, { operator: ALICE, from: zeroAddress, to, id: BigInt(i + 1), value: 1n }),
    );
  const models = emptyModels({ ...chainFacts(), chainId });
  applyLogs(models, book.logs, book.blockTimes());
  advanceHead(models, { number: 100n, timestamp: 2_000_000_000n });
  return models;
}

const perChain = [
  chain(56, [
    [C, [ALICE]],
    [B, [ALICE, BOB]],
    [A, [ALICE]],
  ]),
  chain(137, [
    [B, [ALICE]],
    [A, [ALICE, BOB, CAROL]],
  ]),
];
const query = (fields: Partial<CollectionsQuery> = {}) =>
  ({ perPage: 24, page: 1, sortBy: "mintDate", sortDir: "desc", ...fields }) as CollectionsQuery;
const keys = (body: { collections: { address: string; chainId: number }[] }) =>
  body.collections.map((c) => `${c.chainId}:${c.address.slice(0, 6)}`);

describe("the collection list", () => {
  it("sorts by any field; a tie is broken by address, then chain, whatever the direction", () => {
    expect(keys(listCollections(orderedViews(perChain, "holders", "desc"), query()))).toEqual([
      "137:0xaaaa",
      "56:0xbbbb",
      "56:0xaaaa",
      "137:0xbbbb",
      "56:0xcccc",
    ]);
    expect(keys(listCollections(orderedViews(perChain, "holders", "asc"), query()))).toEqual([
      "56:0xaaaa",
      "137:0xbbbb",
      "56:0xcccc",
      "56:0xbbbb",
      "137:0xaaaa",
    ]);
    expect(keys(listCollections(orderedViews(perChain, "mintDate", "desc"), query()))).toEqual([
      "56:0xaaaa",
      "137:0xaaaa",
      "56:0xbbbb",
      "137:0xbbbb",
      "56:0xcccc",
    ]);
  });

  it("filters exactly on typed fields, addresses in any case; count is every match, not the page", () => {
    const ordered = orderedViews(perChain, "mintDate", "desc");
    expect(listCollections(ordered, query({ chainId: 137 }))).toMatchObject({ count: 2 });
    expect(keys(listCollections(ordered, query({ isVerified: false })))).toEqual(["137:0xbbbb"]);
    expect(keys(listCollections(ordered, query({ address: A.toUpperCase().replace("0X", "0x") })))).toEqual([
      "56:0xaaaa",
      "137:0xaaaa",
    ]);
    expect(keys(listCollections(ordered, query({ ownerAddress: BOB, holders: 1 })))).toEqual(["56:0xaaaa"]);
    expect(
      keys(listCollections(ordered, query({ ownerAddress: BOB.toUpperCase().replace("0X", "0x"), holders: 1 }))),
    ).toEqual(["56:0xaaaa"]);
    const page = listCollections(ordered, query({ perPage: 2, page: 3 }));
    expect(page.count).toBe(5);
    expect(keys(page)).toEqual(["56:0xcccc"]);
    expect(listCollections(ordered, query({ perPage: 2, page: 4 }))).toEqual({ collections: [], count: 5 });
  });

  it("answers summaries, and keeps an order until a chain's models move", () => {
    const ordered = orderedViews(perChain, "holders", "desc");
    expect(listCollections(ordered, query()).collections[0]).toBe(ordered[0]!.summary);
    expect(orderedViews([...perChain], "holders", "desc")).toBe(ordered);
    expect(ordered.map(({ collection }) => collection)).toEqual(
      perChain
        .flatMap((models) => [...collectionViews(models).values()])
        .map(({ collection }) => collection)
        .sort((a, b) => b.holders - a.holders || (a.address < b.address ? -1 : 1) || a.chainId - b.chainId),
    );
    const changed = [perChain[0]!, chain(137, [[B, [ALICE]]])];
    expect(orderedViews(changed, "holders", "desc")).not.toBe(ordered);
    expect(orderedViews(changed, "holders", "desc")).toHaveLength(4);
    // Another chain's models moved: the order is made again, and kept for the chains as they are now.
    const moved = chain(137, [[B, [ALICE]]]);
    const again = orderedViews([perChain[0]!, moved], "holders", "desc");
    expect(orderedViews([perChain[0]!, moved], "holders", "desc")).toBe(again);
    advanceHead(moved, { number: 101n, timestamp: 2_000_000_001n });
    expect(orderedViews([perChain[0]!, moved], "holders", "desc")).not.toBe(again);
    // The same chain alone is another order.
    expect(orderedViews([perChain[0]!], "holders", "desc")).toHaveLength(3);
    expect(orderedViews(perChain, "holders", "desc")).toHaveLength(5);
  });
});
