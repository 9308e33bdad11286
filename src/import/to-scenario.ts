import { zeroAddress } from "viem";
import type { ItemEvent } from "../schemas/item-event.ts";
import { formatOffset } from "../scenario/time.ts";
import type { LiveCollection, LiveItem } from "./live-reads.ts";
import { marketEntry, MINTER, transferEntry, type Entry } from "./history-entries.ts";
import { listingNames, liveMarketplaces, type LiveMarketplace } from "./escrows.ts";
import { tokenKey, type AddedTokens } from "./report.ts";

/** What the four endpoints do not reveal, and the import gives a default for (the report names each). */
export interface ImportDefaults {
  /** The local API key that may mint more into the imported collections (its account is a minter of each). */
  mintKey: string;
  /** The world's "now" (volumes are measured against it). */
  now: Date;
}

/** A world in the scenario format, as a file holds it (defaults left out). */
export type ScenarioFile = Record<string, unknown> & { timeline: Record<string, unknown>[] };

/** What became of the live history: the events replayed, and those the scenario format cannot say. */
export interface Translation {
  scenario: ScenarioFile;
  events: number;
  skipped: string[];
  /** The tokens the replay holds more of than live (the report lists what they answer). */
  added: AddedTokens;
  /** Each chain's live marketplace, where its histories show one: the world places it there. */
  marketplaces: LiveMarketplace[];
}

// The core contracts take a chain's first three blocks; a collection's creation (at its live address: its announcement
// to the factory) one more.
const BLOCKS_BEFORE_COLLECTIONS = 3;

/**
 * The live collections as a scenario: each collection created at its mint date, each token id an item described by
 * its metadata, and the history replayed oldest first, each entry at its live time and block. Each collection is placed
 * at its live address, and each live account is an account of the world at its live address (without a key: the replay
 * sends as it by impersonation); the collection's owner owns it, and the `importer` account (the mint key's) is a minter
 * of each.
 */
export function toScenario(collections: LiveCollection[], defaults: ImportDefaults): Translation {
  const now = Math.floor(defaults.now.getTime() / 1000);
  const at = (timestamp: number) => formatOffset(Math.min(0, timestamp - now));
  const accounts = new Map<string, string>([["importer", MINTER]]);
  const account = (address: string) => {
    const key = address.toLowerCase();
    let name = accounts.get(key);
    if (!name) accounts.set(key, (name = `a${accounts.size}-${key.slice(2, 10)}`));
    return name;
  };
  const scenarioCollections: Record<string, unknown>[] = [];
  const items: Record<string, unknown>[] = [];
  const timeline: Record<string, unknown>[] = [];
  const skipped: string[] = [];
  const added: AddedTokens = { filled: [], mints: [] };
  let events = 0;
  const firstBlocks = new Map<number, number[]>();
  const places = new Map<Record<string, unknown>, LivePlace>();
  const marketplaces = liveMarketplaces(collections);
  const listingOf = listingNames(marketplaces);

  for (const [c, { collection, items: live }] of collections.entries()) {
    const id = `c${c + 1}-${collection.slug.slice(0, 40)}`;
    scenarioCollections.push({
      id,
      chainId: collection.chainId,
      address: collection.address,
      name: collection.name,
      description: collection.description,
      genre: collection.genre,
      image: collection.image,
      imageHash: collection.imageHash,
      slug: collection.slug,
      website: collection.website,
      owner: account(collection.ownerAddress),
      minters: [MINTER],
      createdAt: at(Math.floor(Date.parse(collection.mintDate) / 1000)),
    });
    const ordered = live
      .flatMap((item) => [...item.events].reverse().map((event) => ({ item, event })))
      .sort((a, b) => a.event.blockNumber - b.event.blockNumber || logIndex(a.event) - logIndex(b.event));
    const entriesBefore = timeline.length;
    const groups = itemGroups(live, ordered);
    const firstEvents = new Map<ItemGroup, ItemEvent>();
    for (const { item, event } of ordered)
      if (!firstEvents.has(groups.get(item)!)) firstEvents.set(groups.get(item)!, event);
    for (const group of new Set(groups.values())) items.push(itemOf(id, group));
    // A token id without live history is filled, so that every live token keeps its id.
    const liveIds = new Set(live.map((item) => item.tokenId));
    const gaps = Array.from({ length: Math.max(0, ...liveIds) }, (_, i) => i + 1).filter((t) => !liveIds.has(t));
    for (const tokenId of gaps) items.push(gapItem(id, tokenId));
    added.filled.push(...gaps.map((tokenId) => tokenKey(collection.address, tokenId)));
    const approved = new Set<string>();
    const minted = new Set<ItemGroup>();
    // The groups by their first token id, and the lowest token id no earlier mint has gone over yet.
    const groupOf = new Map([...new Set(groups.values())].map((group) => [group.tokens[0]!.tokenId, group]));
    let idsBelow = 1;
    const done = new Set<string>();
    for (const { item, event } of ordered) {
      if (done.has(eventKey(event))) continue;
      // What this event's entries are (those that make it possible too): where it was live.
      const place = { chainId: collection.chainId, block: event.blockNumber, logIndex: logIndex(event) };
      const from = timeline.length;
      const placed = () => timeline.slice(from).forEach((entry) => places.set(entry, place));
      const group = groups.get(item)!;
      const copy = group.isStackable ? undefined : group.tokens.indexOf(item) + 1;
      const handle = `${id}-${group.tokens[0]!.tokenId}`;
      const together = ordered.filter(
        (other) => other.event.transactionHash === event.transactionHash && other.item === item,
      );
      together.forEach((other) => done.add(eventKey(other.event)));
      const market = together.find(({ event: e }) => e.event !== "TransferSingle" && e.event !== "TransferBatch");
      let entry: Entry | undefined;
      if (!minted.has(group)) {
        const first = group.tokens[0]!.tokenId;
        const when = at(event.timestamp);
        const below: Record<string, unknown>[] = [];
        // A history without its mint: the replay mints it to its first holder, one event more than live.
        const mintFirst = (of: ItemGroup, holder: string, itemRef: string) => {
          minted.add(of);
          skipped.push(`${itemRef}: no mint in its history; the replay mints it (one event more)`);
          added.mints.push(...of.tokens.map(({ tokenId }) => tokenKey(collection.address, tokenId)));
          below.push({ at: when, action: "addItem", item: `${id}-${of.tokens[0]!.tokenId}`, by: MINTER, to: holder });
        };
        // The contract gives token ids in order: every lower one goes first, each filled (held by nobody, as live: burnt
        // once added) or, where its history lacks its mint and starts later, minted to its first holder.
        for (let tokenId = idsBelow; tokenId < first; tokenId++) {
          if (gaps[0] === tokenId) {
            gaps.shift();
            const item = `${id}-${tokenId}`;
            below.push(
              { at: when, action: "addItem", item, by: MINTER, to: MINTER },
              { at: when, action: "burn", item, from: MINTER, amount: 1 },
            );
            continue;
          }
          const lower = groupOf.get(tokenId);
          const opening = lower && !minted.has(lower) && firstEvents.get(lower);
          if (opening && opening.from !== zeroAddress) mintFirst(lower, account(opening.from), opening.itemRef);
        }
        idsBelow = Math.max(idsBelow, first);
        const unminted = event.from !== zeroAddress;
        if (unminted) mintFirst(group, account(event.from), event.itemRef);
        // Below the approval a first listing by its seller sends first.
        const approval = unminted && market?.event.event === "ItemListed" && !approved.has(account(event.from)) ? 1 : 0;
        below.forEach((entry, i) =>
          timeline.push({ ...entry, block: event.blockNumber - approval - below.length + i }),
        );
      }
      if (market) {
        const transfers = together.filter(({ event: e }) => e.event === "TransferSingle").map(({ event: e }) => e);
        const listing = listingOf(market.event, transfers);
        entry = marketEntry(market.event, listing, handle, copy, account, approved);
      } else if (event.from === zeroAddress && !minted.has(group)) {
        minted.add(group);
        // One addItem mints every copy of a non-stackable item, in one batch.
        for (const other of ordered)
          if (other.event.transactionHash === event.transactionHash && groups.get(other.item) === group)
            done.add(eventKey(other.event));
        entry = { action: "addItem", item: handle, by: MINTER, to: account(event.to) };
      } else if (event.event === "TransferBatch" && event.from !== zeroAddress && event.to !== zeroAddress) {
        // One safeBatchTransferFrom moved every token of the batch: one entry, one transaction, as live.
        const batch = ordered.filter(
          (other) => other.event.transactionHash === event.transactionHash && other.event.event === "TransferBatch",
        );
        batch.forEach((other) => done.add(eventKey(other.event)));
        const items = batch.map(({ item: token, event: moved }) => {
          const of = groups.get(token)!;
          return {
            item: `${id}-${of.tokens[0]!.tokenId}`,
            ...(of.isStackable ? {} : { copy: of.tokens.indexOf(token) + 1 }),
            amount: Number(moved.amount),
          };
        });
        events += batch.length - together.length;
        entry = { action: "transferBatch", from: account(event.from), to: account(event.to), items };
      } else entry = transferEntry(event, handle, copy, account);
      if (!entry) {
        skipped.push(`${event.id} (${event.event})`);
        placed();
        continue;
      }
      events += together.length;
      timeline.push({ at: at(event.timestamp), block: event.blockNumber, ...entry });
      placed();
    }
    const first = Math.min(...timeline.slice(entriesBefore).map((entry) => entry.block as number));
    if (Number.isFinite(first))
      firstBlocks.set(collection.chainId, [...(firstBlocks.get(collection.chainId) ?? []), first]);
  }
  shareLiveBlocks(places);
  // Stable: the entries of one block in their events' live order, those made for one event in the order made.
  timeline.sort(
    (a, b) => (a.block as number) - (b.block as number) || places.get(a)!.logIndex - places.get(b)!.logIndex,
  );
  // Every collection's chain, at a height only where one of its collections has history to place, with the marketplace
  // at its live address where the histories show it.
  const chains = [...new Set(collections.map(({ collection }) => collection.chainId))].map((chainId) => {
    const blocks = firstBlocks.get(chainId);
    const marketplace = marketplaces.find((live) => live.chainId === chainId)?.address;
    if (!blocks) return chainId;
    const first = Math.min(...blocks);
    const before = BLOCKS_BEFORE_COLLECTIONS + collections.filter((c) => c.collection.chainId === chainId).length + 2;
    return { chainId, startBlock: Math.max(1, first - before), ...(marketplace ? { marketplace } : {}) };
  });
  return {
    events,
    skipped,
    added,
    marketplaces,
    scenario: {
      $schema: "./scenario.schema.json",
      name: "imported",
      description: `Imported from ${collections.map(({ collection }) => `${collection.chainId}/${collection.address}`).join(", ")}`,
      now: defaults.now.toISOString(),
      chains,
      // Each live account at its live address (sent as by impersonation); the importer's has a key of its own.
      accounts: [...accounts].map(([address, name]) =>
        address === MINTER ? { name, keyLabel: "import/importer" } : { name, address },
      ),
      apiKeys: [{ key: defaults.mintKey, account: MINTER }],
      collections: scenarioCollections,
      items,
      timeline,
    },
  };
}

const eventKey = (event: ItemEvent) => `${event.id}/${event.itemRef}`;

/** An event's place in its live block: its log index, the last part of its id (a transfer's and a market event's). */
const logIndex = (event: ItemEvent) => Number(event.id.split("-").at(-1)) || 0;

/** Where the live event that a timeline entry makes (or makes possible: an approval, a mint it needs) was. */
interface LivePlace {
  chainId: number;
  block: number;
  logIndex: number;
}

/**
 * Entries of one live block go in it together, and the replay mines them in one block. What an event needs below its
 * block (a mint the history lacks, token ids filled) goes in the lowest free blocks below it, just above the chain's
 * previous live block, so that the blocks just below it stay free for what the block's entries send first (approvals, a
 * buyer's coins: `ChainReplay.runBlock`) and the block numbers its logs as live. Where the free blocks are too few, it
 * goes in the event's block, before it.
 */
function shareLiveBlocks(places: Map<Record<string, unknown>, LivePlace>): void {
  const byEvent = new Map<LivePlace, Record<string, unknown>[]>();
  for (const [entry, place] of places) {
    if (!byEvent.has(place)) byEvent.set(place, []);
    byEvent.get(place)!.push(entry);
  }
  const blocks = new Map<number, number[]>();
  for (const { chainId, block } of byEvent.keys()) {
    if (!blocks.has(chainId)) blocks.set(chainId, []);
    blocks.get(chainId)!.push(block);
  }
  for (const list of blocks.values()) list.sort((a, b) => a - b);
  for (const [{ chainId, block }, entries] of byEvent) {
    const below = entries.filter((entry) => (entry.block as number) < block);
    if (below.length === 0) continue;
    const used = [...new Set(below.map((entry) => entry.block as number))].sort((a, b) => a - b);
    const previous = blockBefore(blocks.get(chainId)!, block);
    // The chain's first live block: nothing below it to keep clear of (the chain starts below its entries).
    const lowest = Number.isFinite(previous) ? previous + 1 : used[0]!;
    if (lowest + used.length > block) for (const entry of below) entry.block = block;
    else for (const entry of below) entry.block = lowest + used.indexOf(entry.block as number);
  }
}

/** The highest of the sorted blocks below `block`, or -Infinity where none is. */
function blockBefore(sorted: number[], block: number): number {
  let [low, high] = [0, sorted.length];
  while (low < high) {
    const middle = (low + high) >> 1;
    if (sorted[middle]! < block) low = middle + 1;
    else high = middle;
  }
  return low > 0 ? sorted[low - 1]! : -Infinity;
}

/** The token ids one item of the scenario makes: a non-stackable item's copies were minted in one transaction. */
interface ItemGroup {
  tokens: LiveItem[];
  isStackable: boolean;
  initialSupply: number;
}

function itemGroups(live: LiveItem[], ordered: { item: LiveItem; event: ItemEvent }[]): Map<LiveItem, ItemGroup> {
  const groups = new Map<LiveItem, ItemGroup>();
  const batches = new Map<string, ItemGroup>();
  for (const item of live) {
    const firstMint = ordered.find(({ item: other, event }) => other === item && event.from === zeroAddress)?.event;
    if (item.metadata?.isStackable === false && firstMint) {
      let group = batches.get(firstMint.transactionHash);
      if (!group)
        batches.set(firstMint.transactionHash, (group = { tokens: [], isStackable: false, initialSupply: 0 }));
      group.tokens.push(item);
      group.initialSupply++;
      groups.set(item, group);
    } else {
      const isStackable = item.metadata?.isStackable ?? true;
      // A non-stackable item's addItem mints a token for each of its supply: one without its mint is one token.
      const unminted = isStackable ? firstHolding(item, ordered) : 1;
      groups.set(item, { tokens: [item], isStackable, initialSupply: firstMint ? Number(firstMint.amount) : unminted });
    }
  }
  return groups;
}

/**
 * A history without its mint: the least its first holder (the replay mints to it) must have held for every transfer it
 * sends later to be possible, at least 1.
 */
function firstHolding(item: LiveItem, ordered: { item: LiveItem; event: ItemEvent }[]): number {
  let holder: string | undefined;
  let held = 0n;
  let least = 1n;
  for (const { item: other, event } of ordered) {
    if (other !== item) continue;
    holder ??= event.from;
    if (event.event !== "TransferSingle" && event.event !== "TransferBatch") continue;
    if (event.to === holder) held += BigInt(event.amount);
    if (event.from === holder) held -= BigInt(event.amount);
    if (-held > least) least = -held;
  }
  return Number(least);
}

function itemOf(collection: string, group: ItemGroup) {
  const first = group.tokens[0]!;
  const meta = first.metadata ?? {};
  const { initialSupply } = group;
  return {
    id: `${collection}-${first.tokenId}`,
    collection,
    name: meta.name || `Token ${first.tokenId}`,
    description: meta.description ?? "",
    imageUrl: meta.image ?? "",
    ...(meta.fileType ? { fileType: meta.fileType } : {}),
    properties: (meta.attributes ?? []).map((a) => ({
      name: a.trait_type,
      value: String(a.value),
      static: !!a.static,
    })),
    isStackable: group.isStackable,
    isConsumable: meta.isConsumable ?? false,
    initialSupply,
    maximumSupply: Math.max(meta.maximumSupply ?? initialSupply, initialSupply),
    royaltyFee: meta.royaltyFee ?? 0,
  };
}

function gapItem(collection: string, tokenId: number) {
  return { id: `${collection}-${tokenId}`, collection, name: `Token ${tokenId} (no live history)`, initialSupply: 1 };
}
