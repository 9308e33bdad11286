import { expect, it } from "vitest";
import { worldCacheKey } from "../../src/world-cache/key.ts";

const chains = [
  { chainId: 56, startBlock: 1 },
  { chainId: 137, startBlock: 1 },
];

it("keys a world the same whenever what decides its chains is the same, in whatever order the chains come", () => {
  const key = worldCacheKey("demo@http://127.0.0.1:3000", chains);
  expect(key).toMatch(/^[0-9a-f]{32}$/);
  expect(worldCacheKey("demo@http://127.0.0.1:3000", [...chains].reverse())).toBe(key);
});

it("keys another world, another chain or another start height apart", () => {
  const key = worldCacheKey("demo@http://127.0.0.1:3000", chains);
  const others = [
    worldCacheKey("demo@http://127.0.0.1:3001", chains),
    worldCacheKey("default@http://127.0.0.1:3000", chains),
    worldCacheKey("demo@http://127.0.0.1:3000", [chains[0]!]),
    worldCacheKey("demo@http://127.0.0.1:3000", [chains[0]!, { chainId: 137, startBlock: 2 }]),
    worldCacheKey("demo@http://127.0.0.1:3000", [...chains, { chainId: 1, startBlock: 1 }]),
  ];
  expect(new Set([key, ...others]).size).toBe(others.length + 1);
});
