import { slugify } from "../core/formats.ts";
import { ACTION_CHECKS, type ActionStep, type TimelineState } from "./action-checks.ts";
import type { Scenario, ScenarioCollection, ScenarioItem } from "./schema.ts";
import { offsetSeconds } from "./time.ts";

/** One thing replay does, in replay order: create a collection, or run a timeline entry. */
export type Step =
  { kind: "collection"; at: number; chainId: number; path: string; collection: ScenarioCollection } | ActionStep;

/**
 * Checks every reference of a scenario (accounts, keys, collections, items, listings) and
 * returns its steps in replay order; problems are added to `problems`, named by JSON path.
 */
export function checkReferences(scenario: Scenario, problems: string[]): Step[] {
  const chains = new Set(scenario.chains);

  const accounts = new Set<string>();
  const keyLabels = new Map<string, string>();
  scenario.accounts.forEach((account, i) => {
    if (accounts.has(account.name)) problems.push(`accounts[${i}].name: '${account.name}' is defined twice`);
    accounts.add(account.name);
    const label = account.keyLabel ?? `account/${account.name}`;
    const other = keyLabels.get(label);
    if (other) problems.push(`accounts[${i}].keyLabel: '${label}' is also the key of account '${other}'`);
    keyLabels.set(label, account.name);
  });
  const needAccount = (path: string, name: string) => {
    if (!accounts.has(name)) problems.push(`${path}: unknown account '${name}'`);
  };

  const apiKeys = new Set<string>();
  const keyedAccounts = new Set<string>();
  scenario.apiKeys.forEach((apiKey, i) => {
    if (apiKeys.has(apiKey.key)) problems.push(`apiKeys[${i}].key: '${apiKey.key}' is defined twice`);
    apiKeys.add(apiKey.key);
    needAccount(`apiKeys[${i}].account`, apiKey.account);
    if (keyedAccounts.has(apiKey.account))
      problems.push(`apiKeys[${i}].account: account '${apiKey.account}' already has an API key`);
    keyedAccounts.add(apiKey.account);
  });

  const collections = new Map<string, ScenarioCollection>();
  const slugs = new Set<string>();
  const steps: Step[] = [];
  scenario.collections.forEach((collection, i) => {
    const path = `collections[${i}]`;
    if (collections.has(collection.id)) problems.push(`${path}.id: '${collection.id}' is defined twice`);
    collections.set(collection.id, collection);
    if (!chains.has(collection.chainId)) problems.push(`${path}.chainId: chain ${collection.chainId} is not in chains`);
    needAccount(`${path}.owner`, collection.owner);
    collection.minters.forEach((minter, j) => needAccount(`${path}.minters[${j}]`, minter));
    const slug = `${collection.chainId}/${collection.slug ?? slugify(collection.name)}`;
    if (slugs.has(slug))
      problems.push(
        `${path}.slug: '${slug.split("/")[1]}' is used by another collection on chain ${collection.chainId}`,
      );
    slugs.add(slug);
    steps.push({
      kind: "collection",
      at: offsetSeconds(collection.createdAt),
      chainId: collection.chainId,
      path,
      collection,
    });
  });

  const items = new Map<string, ScenarioItem>();
  scenario.items.forEach((item, i) => {
    const path = `items[${i}]`;
    if (items.has(item.id)) problems.push(`${path}.id: '${item.id}' is defined twice`);
    items.set(item.id, item);
    if (!collections.has(item.collection)) problems.push(`${path}.collection: unknown collection '${item.collection}'`);
    if ((item.royaltyFee ?? 0) >= 300)
      problems.push(`${path}.royaltyFee must be below 300 (30%): the collection contract refuses more`);
    if (item.isStackable !== false && item.maximumSupply !== undefined && item.maximumSupply < item.initialSupply) {
      problems.push(`${path}.maximumSupply must be at least initialSupply (${item.initialSupply})`);
    }
  });

  scenario.timeline.forEach((action, i) => {
    const item = "item" in action ? items.get(action.item) : undefined;
    const collection = item && collections.get(item.collection);
    steps.push({
      kind: "action",
      at: offsetSeconds(action.at),
      chainId: collection?.chainId ?? 0,
      path: `timeline[${i}]`,
      action,
    });
  });
  // Stable: equal times keep file order, and a collection exists before what happens at its creation time.
  steps.sort((a, b) => a.at - b.at || (a.kind === b.kind ? 0 : a.kind === "collection" ? -1 : 1));

  const state: TimelineState = {
    problems,
    items,
    collections,
    addedAnywhere: new Set(scenario.timeline.flatMap((action) => (action.action === "addItem" ? [action.item] : []))),
    created: new Set(),
    added: new Map(),
    listings: new Map(),
  };
  for (const step of steps) {
    if (step.kind === "collection") {
      state.created.add(step.collection.id);
      continue;
    }
    for (const field of ["by", "to", "from", "seller", "buyer"] as const) {
      if (field in step.action) needAccount(`${step.path}.${field}`, (step.action as Record<string, string>)[field]!);
    }
    ACTION_CHECKS[step.action.action](state, step as never);
  }
  return steps;
}
