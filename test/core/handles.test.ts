import type { Address, Hex } from "viem";
import { describe, expect, it } from "vitest";
import { WorldHandles } from "../../src/core/handles.ts";

const alice = { address: "0xa11ce00000000000000000000000000000000006" as Address, key: `0x${"1".repeat(64)}` as Hex };
const bob = { address: "0xb0b0000000000000000000000000000000000007" as Address, key: `0x${"2".repeat(64)}` as Hex };

describe("WorldHandles", () => {
  it("finds an account's name by its address", () => {
    const handles = new WorldHandles([
      ["alice", alice],
      ["bob", bob],
    ]);
    expect(handles.nameOf(bob.address)).toBe("bob");
    expect(handles.nameOf(alice.address)).toBe("alice");
    expect(handles.nameOf(`0x${"9".repeat(40)}`)).toBeUndefined();
  });

  it("comes back to a copy: what was added since is gone, what was there is there again", () => {
    const handles = new WorldHandles([["alice", alice]]);
    handles.collections.set("riders", { chainId: 56, address: `0x${"c".repeat(40)}`, slug: "riders" });
    const copy = handles.copy();
    handles.accounts.set("bob", bob);
    handles.items.set("saddle", { chainId: 56, collection: `0x${"c".repeat(40)}`, tokenIds: [1n] });
    handles.listings.set("sale", { chainId: 56, listingId: 1n });
    handles.collections.delete("riders");
    expect(copy.accounts.has("bob")).toBe(false);
    expect(copy.collections.has("riders")).toBe(true);

    handles.restore(copy);
    expect([...handles.accounts.keys()]).toEqual(["alice"]);
    expect([...handles.collections.keys()]).toEqual(["riders"]);
    expect(handles.items.size + handles.listings.size).toBe(0);
    expect(handles.nameOf(bob.address)).toBeUndefined();
    // Restoring leaves the copy as it was, for another restore.
    handles.accounts.set("bob", bob);
    handles.restore(copy);
    expect(handles.accounts.has("bob")).toBe(false);
  });
});
