import { parseScenario } from "../../src/scenario/load.ts";
import { scenarioWorld } from "../../src/scenario/replay.ts";

// A world whose timeline names one block for several entries (as an imported world's events of one live block do),
// for the tests that replay it in process and on a node.

export const PUBLIC_URL = "http://127.0.0.1:3000";
export const START_BLOCK = 51_000_000;
export const SHARED = 51_000_200;
export const NOW = Date.parse("2025-03-01T00:00:00Z") / 1000;
export const DAY = 86_400;

/** The badge's mint, well below the shared block: the blocks between are free. */
export const BEFORE: Record<string, unknown>[] = [
  { at: "-2d", block: 51_000_150, action: "addItem", item: "badge", by: "studio", to: "alice" },
];

export const sharedBlockScenario = (shared: Record<string, unknown>[], before: Record<string, unknown>[] = BEFORE) => ({
  now: "2025-03-01T00:00:00Z",
  chains: [{ chainId: 56, startBlock: START_BLOCK }],
  accounts: [{ name: "studio", keyLabel: "developer/studio" }, { name: "alice" }, { name: "bob" }, { name: "carol" }],
  apiKeys: [{ key: "shared-studio-key", account: "studio" }],
  collections: [{ id: "riders", chainId: 56, name: "Dragon Riders", owner: "studio", createdAt: "-10d" }],
  items: [
    { id: "coin", collection: "riders", name: "Gold Coin", initialSupply: 10 },
    { id: "badge", collection: "riders", name: "Badge", initialSupply: 5 },
  ],
  timeline: [
    { at: "-3d", block: 51_000_100, action: "addItem", item: "coin", by: "studio", to: "alice" },
    ...before,
    ...shared,
    { at: "-12h", block: SHARED + 1, action: "transfer", item: "coin", from: "alice", to: "carol", amount: 1 },
  ],
});

/** Three entries of one block, four transactions: a transfer, a first listing (its approval first), a buy of it. */
export const THREE = [
  { at: "-1d", block: SHARED, action: "transfer", item: "badge", from: "alice", to: "bob", amount: 2 },
  {
    at: "-1d",
    block: SHARED,
    action: "list",
    listing: "l1",
    item: "coin",
    seller: "alice",
    amount: 3,
    price: "0.5",
    currency: "native",
  },
  { at: "-1d", block: SHARED, action: "buy", listing: "l1", buyer: "bob", amount: 1 },
];

/** Two entries of one block where the second would revert there: it needs what the first moved away. */
export const OVERDRAWN = [
  { at: "-1d", block: SHARED, action: "transfer", item: "badge", from: "alice", to: "bob", amount: 4 },
  { at: "-1d", block: SHARED, action: "transfer", item: "badge", from: "alice", to: "carol", amount: 4 },
];

export const sharedBlockWorld = (
  entries = THREE,
  options: Parameters<typeof scenarioWorld>[1] = {},
  before: Record<string, unknown>[] = BEFORE,
) => scenarioWorld(parseScenario(sharedBlockScenario(entries, before)), { baseUrl: PUBLIC_URL, ...options });
