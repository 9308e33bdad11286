import { slugify } from "../core/formats.ts";
import { scenarioChains, type Scenario, type ScenarioAction, type ScenarioCollection } from "../schemas/scenario.ts";
import type { ActionStep, KnownItem, ListingState, TimelineState } from "../timeline/action.ts";
import { actionOf } from "../timeline/actions.ts";
import { offsetSeconds } from "./time.ts";

/** One thing replay does, in replay order: create a collection, or run a timeline entry. */
export type Step =
  | { kind: "collection"; at: number; chainId: number; path: string; collection: ScenarioCollection }
  | ActionStep<ScenarioAction>;

/** A scenario's steps in replay order, checked; each walk over them again starts from `start()`. */
export type CheckedTimeline = ReturnType<typeof checkReferences>;

/** What a running world holds already, named: a fragment applied to it may refer to all of it. */
export interface KnownWorld {
  accounts: ReadonlySet<string>;
  apiKeys: ReadonlySet<string>;
  /** Accounts that have an API key. */
  keyedAccounts: ReadonlySet<string>;
  collections: ReadonlyMap<string, { chainId: number }>;
  /** Every collection's `<chainId>/<slug>`, named or not. */
  slugs: ReadonlySet<string>;
  items: ReadonlyMap<string, KnownItem>;
  /** Listings by handle: how much each has left, closed ones too. */
  listings: ReadonlyMap<string, ListingState>;
}

type Has = { has(name: string): boolean };

/**
 * Checks every reference of a scenario (accounts, keys, collections, items, listings) and
 * returns its steps in replay order; problems are added to `problems`, named by JSON path.
 * Each timeline entry is checked by its action (`timeline/`), in time order.
 * A fragment is checked against the world it is applied to (`known`): it may name what the world
 * holds, and may not define a name the world uses.
 */
export function checkReferences(scenario: Scenario, problems: string[], known?: KnownWorld) {
  const chains = new Set(scenarioChains(scenario).map(({ chainId }) => chainId));
  const twice = (seen: Has, world: Has | undefined, path: string, kind: string, name: string) => {
    const said = world?.has(name) ? `the world already has ${kind} '${name}'` : `'${name}' is defined twice`;
    if (seen.has(name)) problems.push(`${path}: ${said}`);
  };

  const accounts = new Set(known?.accounts);
  const keyLabels = new Map<string, string>();
  const placed = new Map<string, string>();
  scenario.accounts.forEach((account, i) => {
    twice(accounts, known?.accounts, `accounts[${i}].name`, "an account", account.name);
    accounts.add(account.name);
    if (account.address !== undefined) {
      if (account.keyLabel !== undefined)
        problems.push(`accounts[${i}]: an account has a key (keyLabel) or an address, not both`);
      const other = placed.get(account.address.toLowerCase());
      if (other)
        problems.push(`accounts[${i}].address: '${account.address}' is also the address of account '${other}'`);
      placed.set(account.address.toLowerCase(), account.name);
      return;
    }
    const label = account.keyLabel ?? `account/${account.name}`;
    const other = keyLabels.get(label);
    if (other) problems.push(`accounts[${i}].keyLabel: '${label}' is also the key of account '${other}'`);
    keyLabels.set(label, account.name);
  });
  const needAccount = (path: string, name: string) => {
    if (!accounts.has(name)) problems.push(`${path}: unknown account '${name}'`);
  };

  const apiKeys = new Set(known?.apiKeys);
  const keyedAccounts = new Set(known?.keyedAccounts);
  scenario.apiKeys.forEach((apiKey, i) => {
    twice(apiKeys, known?.apiKeys, `apiKeys[${i}].key`, "an API key", apiKey.key);
    apiKeys.add(apiKey.key);
    needAccount(`apiKeys[${i}].account`, apiKey.account);
    if ([...placed.values()].includes(apiKey.account))
      problems.push(
        `apiKeys[${i}].account: account '${apiKey.account}' is at an address without a key: it cannot mint`,
      );
    if (keyedAccounts.has(apiKey.account))
      problems.push(`apiKeys[${i}].account: account '${apiKey.account}' already has an API key`);
    keyedAccounts.add(apiKey.account);
  });

  const collections = new Map<string, { chainId: number }>(known?.collections);
  const slugs = new Set(known?.slugs);
  const steps: Step[] = [];
  scenario.collections.forEach((collection, i) => {
    const path = `collections[${i}]`;
    twice(collections, known?.collections, `${path}.id`, "a collection", collection.id);
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

  const items = new Map<string, KnownItem>(known?.items);
  scenario.items.forEach((item, i) => {
    const path = `items[${i}]`;
    twice(items, known?.items, `${path}.id`, "an item", item.id);
    items.set(item.id, item);
    if (!collections.has(item.collection)) problems.push(`${path}.collection: unknown collection '${item.collection}'`);
    if ((item.royaltyFee ?? 0) >= 300)
      problems.push(`${path}.royaltyFee must be below 300 (30%): the collection contract refuses more`);
    if (item.isStackable !== false && item.maximumSupply !== undefined && item.maximumSupply < item.initialSupply)
      problems.push(`${path}.maximumSupply must be at least initialSupply (${item.initialSupply})`);
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

  const addedAnywhere = new Set(
    scenario.timeline.flatMap((action) => (action.action === "addItem" ? [action.item] : [])),
  );
  // What the checks know before the first step, their problems going to `problems`.
  const start = (problems: string[]): TimelineState => ({
    problems,
    accounts,
    items,
    collections,
    addedAnywhere,
    created: new Set(known?.collections.keys()),
    added: new Map([...(known?.items.keys() ?? [])].map((id) => [id, "the world"])),
    listings: new Map([...(known?.listings ?? [])].map(([id, listing]) => [id, { ...listing }])),
  });
  const state = start(problems);
  for (const step of steps) checkStep(state, step);
  checkSharedBlocks(steps, problems);
  return { steps, start };
}

/**
 * Entries that name the same block one after another on a chain go in it together (`sameBlockRuns`), so they must
 * name the same time: a block has one.
 */
function checkSharedBlocks(steps: Step[], problems: string[]): void {
  const last = new Map<number, Step>();
  for (const step of steps) {
    const before = last.get(step.chainId);
    last.set(step.chainId, step);
    if (step.kind !== "action" || before?.kind !== "action") continue;
    const { block, at } = step.action;
    if (block !== undefined && block === before.action.block && step.at !== before.at)
      problems.push(
        `${step.path}.block: block ${block} is also ${before.path}'s, at ${before.action.at}, not ${at}: entries ` +
          `that share a block share its time`,
      );
  }
}

/** Checks one step as the timeline stands at its time: the accounts its entry names, then its action's checks. */
export function checkStep(state: TimelineState, step: Step): void {
  if (step.kind === "collection") return void state.created.add(step.collection.id);
  const action = actionOf(step.action);
  for (const field of action.accounts ?? []) {
    const name = (step.action as unknown as Record<string, string>)[field]!;
    if (!state.accounts.has(name)) state.problems.push(`${step.path}.${field}: unknown account '${name}'`);
  }
  action.check(state, step);
}
