import { describe, expect, it } from "vitest";
import { checkReferences, type KnownWorld } from "../../src/scenario/references.ts";
import type { Scenario, ScenarioCollection, ScenarioItem } from "../../src/schemas/scenario.ts";

// A scenario's references checked without its schema: what a schema cannot say, each problem named by its JSON path;
// a fragment checked against the world it is applied to.

const collection = (fields: Partial<ScenarioCollection> & Pick<ScenarioCollection, "id">): ScenarioCollection => ({
  chainId: 56,
  name: `Collection ${fields.id}`,
  description: "",
  genre: "",
  image: "",
  imageHash: "",
  website: "",
  owner: "alice",
  minters: [],
  isVerified: true,
  createdAt: "-10d",
  ...fields,
});

const item = (fields: Partial<ScenarioItem> & Pick<ScenarioItem, "id">): ScenarioItem =>
  ({
    collection: "riders",
    name: `Item ${fields.id}`,
    description: "",
    imageUrl: "",
    fileType: "image/png",
    properties: [],
    isStackable: true,
    isConsumable: false,
    initialSupply: 5,
    ...fields,
  }) as ScenarioItem;

function scenario(fields: Partial<Scenario> = {}): Scenario {
  return {
    chains: [56],
    accounts: [{ name: "alice" }, { name: "bob" }],
    apiKeys: [{ key: "alice-key", account: "alice" }],
    collections: [collection({ id: "riders" })],
    items: [item({ id: "saddle" })],
    timeline: [
      { action: "addItem", at: "-9d", item: "saddle", by: "alice", to: "alice" },
      { action: "transfer", at: "-8d", item: "saddle", from: "alice", to: "bob", amount: 1 },
    ],
    ...fields,
  } as Scenario;
}

function problemsOf(checked: Scenario, known?: KnownWorld): string[] {
  const problems: string[] = [];
  checkReferences(checked, problems, known);
  return problems;
}

describe("checkReferences", () => {
  it("passes a scenario whose every name is defined once and used after it is made", () => {
    expect(problemsOf(scenario())).toEqual([]);
  });

  it("orders the steps by time, a collection before what happens at its creation time", () => {
    const problems: string[] = [];
    const { steps } = checkReferences(
      scenario({
        collections: [collection({ id: "riders", createdAt: "-9d" })],
        timeline: [
          { action: "transfer", at: "-8d", item: "saddle", from: "alice", to: "bob", amount: 1 },
          { action: "addItem", at: "-9d", item: "saddle", by: "alice", to: "alice" },
        ],
      }),
      problems,
    );
    expect(problems).toEqual([]);
    expect(steps.map((step) => [step.kind, step.path, step.at, step.chainId])).toEqual([
      ["collection", "collections[0]", -9 * 86_400, 56],
      ["action", "timeline[1]", -9 * 86_400, 56],
      ["action", "timeline[0]", -8 * 86_400, 56],
    ]);
  });

  it("names what is defined twice, a key label two accounts share, and an account with two API keys", () => {
    expect(
      problemsOf(
        scenario({
          accounts: [{ name: "alice" }, { name: "bob", keyLabel: "account/alice" }, { name: "alice" }],
          apiKeys: [
            { key: "alice-key", account: "alice" },
            { key: "alice-key", account: "bob" },
            { key: "other-key", account: "alice" },
          ],
          collections: [collection({ id: "riders" }), collection({ id: "riders", name: "Other" })],
          items: [item({ id: "saddle" }), item({ id: "saddle" })],
        }),
      ),
    ).toEqual([
      "accounts[1].keyLabel: 'account/alice' is also the key of account 'alice'",
      "accounts[2].name: 'alice' is defined twice",
      "accounts[2].keyLabel: 'account/alice' is also the key of account 'bob'",
      "apiKeys[1].key: 'alice-key' is defined twice",
      "apiKeys[2].account: account 'alice' already has an API key",
      "collections[1].id: 'riders' is defined twice",
      "items[1].id: 'saddle' is defined twice",
    ]);
  });

  it("names unknown accounts, collections and chains, a slug used twice on a chain, and the contracts' rules", () => {
    expect(
      problemsOf(
        scenario({
          apiKeys: [{ key: "k", account: "carol" }],
          collections: [
            collection({ id: "riders", owner: "carol", minters: ["bob", "dave"] }),
            collection({ id: "again", name: "Collection riders" }),
            collection({ id: "far", chainId: 137 }),
          ],
          items: [
            item({ id: "saddle" }),
            item({ id: "stray", collection: "nowhere" }),
            item({ id: "greedy", royaltyFee: 300 }),
            item({ id: "short", initialSupply: 5, maximumSupply: 4 }),
          ],
          timeline: [{ action: "transfer", at: "-8d", item: "saddle", from: "alice", to: "erin", amount: 1 }],
        }),
      ),
    ).toEqual([
      "apiKeys[0].account: unknown account 'carol'",
      "collections[0].owner: unknown account 'carol'",
      "collections[0].minters[1]: unknown account 'dave'",
      "collections[1].slug: 'collection-riders' is used by another collection on chain 56",
      "collections[2].chainId: chain 137 is not in chains",
      "items[1].collection: unknown collection 'nowhere'",
      "items[2].royaltyFee must be below 300 (30%): the collection contract refuses more",
      "items[3].maximumSupply must be at least initialSupply (5)",
      "timeline[0].to: unknown account 'erin'",
      "timeline[0].item: item 'saddle' is used at -8d before it is added (no addItem adds it)",
    ]);
  });

  it("lets a fragment name what the world holds, but not define a name the world uses", () => {
    const world: KnownWorld = {
      accounts: new Set(["alice", "bob"]),
      apiKeys: new Set(["alice-key"]),
      keyedAccounts: new Set(["alice"]),
      collections: new Map([["riders", { chainId: 56 }]]),
      slugs: new Set(["56/collection-riders"]),
      items: new Map([["saddle", item({ id: "saddle" })]]),
      listings: new Map(),
    };
    const uses = scenario({
      accounts: [],
      apiKeys: [],
      collections: [],
      items: [],
      timeline: [{ action: "transfer", at: "now", item: "saddle", from: "alice", to: "bob", amount: 1 }],
    });
    expect(problemsOf(uses, world)).toEqual([]);
    expect(problemsOf(scenario(), world)).toEqual([
      "accounts[0].name: the world already has an account 'alice'",
      "accounts[1].name: the world already has an account 'bob'",
      "apiKeys[0].key: the world already has an API key 'alice-key'",
      "apiKeys[0].account: account 'alice' already has an API key",
      "collections[0].id: the world already has a collection 'riders'",
      "collections[0].slug: 'collection-riders' is used by another collection on chain 56",
      "items[0].id: the world already has an item 'saddle'",
      "timeline[0].item: item 'saddle' is already added by the world",
    ]);
  });
});
