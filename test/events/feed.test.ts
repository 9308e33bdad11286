import type { Address } from "viem";
import { describe, expect, it } from "vitest";
import type { FeedEntry } from "../../src/events/feed.ts";
import { eventFilter, matches } from "../../src/events/feed.ts";

const COLLECTION = "0xc011000000000000000000000000000000000004" as Address;

function entry(fields: Partial<FeedEntry>): FeedEntry {
  return { seq: 1, type: "TransferSingle", id: "x", data: "{}", at: 0, ...fields } as FeedEntry;
}

describe("eventFilter", () => {
  it("keeps only what was given, the collection in lower case, kinds from a list or comma-separated", () => {
    expect(eventFilter({})).toEqual({});
    expect(eventFilter({ chainId: 56, collection: COLLECTION.toUpperCase().replace("0X", "0x"), tokenId: 0 })).toEqual({
      chainId: 56,
      collection: COLLECTION,
      tokenId: 0,
    });
    expect(eventFilter({ kinds: "Swapped,ItemListed" }).kinds).toEqual(new Set(["Swapped", "ItemListed"]));
    expect(eventFilter({ kinds: ["Swapped"] }).kinds).toEqual(new Set(["Swapped"]));
  });
});

describe("matches", () => {
  const sale = entry({ type: "Swapped", kind: "Swapped", chainId: 56, collection: COLLECTION, tokenId: 3 });

  it("lets every entry through an empty filter", () => {
    expect(matches({}, sale)).toBe(true);
    expect(matches({}, entry({ type: "violation" }))).toBe(true);
  });

  it("asks every filter given to agree", () => {
    expect(matches(eventFilter({ chainId: 56, collection: COLLECTION, tokenId: 3, kinds: "Swapped" }), sale)).toBe(
      true,
    );
    expect(matches(eventFilter({ chainId: 137 }), sale)).toBe(false);
    expect(matches(eventFilter({ collection: `0x${"1".repeat(40)}` }), sale)).toBe(false);
    expect(matches(eventFilter({ tokenId: 4 }), sale)).toBe(false);
    expect(matches(eventFilter({ chainId: 56, kinds: "ItemListed" }), sale)).toBe(false);
  });

  it("passes a removal as the kind it takes back, and keeps out what has no kind from a kinds filter", () => {
    const removed = entry({ type: "removed", kind: "Swapped", chainId: 56, collection: COLLECTION, tokenId: 3 });
    expect(matches(eventFilter({ kinds: "Swapped" }), removed)).toBe(true);
    expect(matches(eventFilter({ kinds: "removed" }), removed)).toBe(false);
    expect(matches(eventFilter({ kinds: "Swapped" }), entry({ type: "violation" }))).toBe(false);
  });

  it("keeps a collection's creation, which has no token id, out of a token filter", () => {
    const created = entry({
      type: "CollectionCreated",
      kind: "CollectionCreated",
      chainId: 56,
      collection: COLLECTION,
    });
    expect(matches(eventFilter({ collection: COLLECTION }), created)).toBe(true);
    expect(matches(eventFilter({ tokenId: 1 }), created)).toBe(false);
  });
});
