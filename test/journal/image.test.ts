import { expect, it } from "vitest";
import { applyPart, decodeParts, encodeImage } from "../../src/journal/image.ts";
import type { FoldedState } from "../../src/journal/fold.ts";
import { emptyModels, itemKey, type ChainModels } from "../../src/indexer/models.ts";

// An image (a checkpoint, a cached world) is written in parts: the first holds what collection answers need (and no item), the
// rest each chain's items, balances and histories in slices, then the snapshots'
// copies. Put back together, they are the state that was written.

function models(chainId: number, items: number): ChainModels {
  const built = emptyModels({ chainId, factory: "0xf", marketplace: "0xe", currencies: new Map() } as never);
  built.collections.set("0xc", { chainId, address: "0xc", owner: "0xo", name: "C", uri: "u", createdAt: 1 } as never);
  built.holders.set("0xc", new Map([["0xh", 1]]) as never);
  for (let tokenId = 1n; tokenId <= BigInt(items); tokenId += 1n) {
    const key = itemKey("0xc", tokenId);
    built.items.set(key, {
      maxSupply: 5n,
      royaltyPerMille: 0,
      creation: { transactionHash: "0x1", tokenIds: [tokenId] },
    });
    built.balances.set(key, new Map([["0xh", 5n]]) as never);
    built.activity.set(key, [{ kind: "TransferSingle", tokenId, amount: 5n } as never]);
  }
  built.head = { blockNumber: 7, timestamp: 100 };
  return built;
}

it("puts a state back together from its parts, the first one without any item", () => {
  const state: FoldedState = {
    chains: [56, 137].map((chainId) => ({
      chainId,
      contracts: {} as never,
      models: models(chainId, 9_000),
      headHash: "0xab",
    })),
    accounts: [{ apiKey: "k", name: "n", walletKey: "0x1", wallet: "0x2" }],
    snapshots: {
      count: 1,
      taken: [["1", { chains: [], accounts: [] }]],
    },
  };
  const of = { world: "w", generation: "g", offset: 42, at: "2026-01-01T00:00:00.000Z" };
  const parts = [...encodeImage(of, state)];
  expect(parts.length).toBeGreaterThan(6);
  const { head, rest } = decodeParts(Buffer.concat(parts));
  expect(head.offset).toBe(42);
  for (const { models: read } of head.chains) {
    expect(read.items.size + read.balances.size + read.activity.size).toBe(0);
    expect(read.collections.size).toBe(1);
    expect(read.holders.get("0xc" as never)?.size).toBe(1);
    expect(read.head).toEqual({ blockNumber: 7, timestamp: 100 });
  }
  let snapshots;
  for (const part of rest) snapshots = applyPart(head, part) ?? snapshots;
  expect({ ...head, snapshots }).toEqual({ format: 2, ...of, ...state });
});
