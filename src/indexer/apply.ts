// How a log changes the read models: one reducer per followed event (the marketplace's in marketplace.ts), folded in
// chain order.
import { zeroAddress, type Address, type Block } from "viem";
import type { ArgsOf, IndexedEventName, IndexedLog } from "./log-source.ts";
import {
  type Activity,
  type ChainModels,
  type CollectionRecord,
  type LogPosition,
  type Folded,
  itemKey,
  type Creation,
  type TransferFact,
  type TransferKind,
  countHolder,
  recordActivity,
} from "./models.ts";
import { MARKET_REDUCERS, type Reducer } from "./marketplace.ts";
import { lowerAddress, hexToText } from "../core/formats.ts";

/**
 * What a reducer folded in: a collection, item activity, or nothing the API shows (an item's creation, a log of no
 * known collection).
 */
type Fold = CollectionRecord | Activity | Activity[] | undefined | void;

const reducers: { [Name in IndexedEventName]: Reducer<Name, Fold> } = {
  /** The factory deployed a collection: from now on its logs are followed. */
  CollectionCreated(models, args, at, emitter) {
    if (emitter !== models.facts.factory) return;
    const address = lowerAddress(args.collection);
    const record: CollectionRecord = {
      chainId: models.facts.chainId,
      address,
      owner: lowerAddress(args.owner),
      name: args.name,
      uri: args.uri,
      createdAt: at.timestamp,
      metadata: hexToText(args.metadata),
    };
    models.collections.set(address, record);
    return record;
  },
  /**
   * A collection created a token id (its supply arrives as a transfer from the zero address).
   * Token ids one transaction creates are consecutive; they share one creation.
   */
  ItemCreated(models, args, at, address) {
    if (!models.collections.has(address)) return;
    const previous = models.items.get(itemKey(address, args.tokenId - 1n))?.creation;
    const creation: Creation =
      previous?.transactionHash === at.transactionHash
        ? previous
        : { transactionHash: at.transactionHash, tokenIds: [] };
    creation.tokenIds.push(args.tokenId);
    models.items.set(itemKey(address, args.tokenId), {
      maxSupply: args.maxSupply,
      royaltyPerMille: Number(args.royaltyPerMille),
      creation,
    });
  },
  /** The transaction that created an item described it: the description joins the item's creation (all its token ids). */
  ItemDescribed(models, args, at, address) {
    // An unknown collection has no items (ItemCreated records none), so this finds no creation for it.
    const creation = models.items.get(itemKey(address, args.firstTokenId))?.creation;
    if (creation?.transactionHash !== at.transactionHash) return;
    creation.description = { stackable: args.stackable, metadata: hexToText(args.metadata) };
  },
  /** A mint (from zero), burn (to zero) or transfer of one token id. */
  TransferSingle: (models, args, at, address) =>
    transfer(models, "TransferSingle", at, address, args, [[args.id, args.value]]),
  /** One activity fact per token id the batch moved (a repeated id counts once, amounts added). */
  TransferBatch(models, args, at, address) {
    const amounts = new Map<bigint, bigint>();
    args.ids.forEach((id, i) => amounts.set(id, (amounts.get(id) ?? 0n) + args.values[i]!));
    return transfer(models, "TransferBatch", at, address, args, amounts);
  },
  ...MARKET_REDUCERS,
};

/** Moves each token id's amount of `collection` from `parties.from` to `parties.to`, a fact of `kind` each. */
function transfer(
  models: ChainModels,
  kind: TransferKind,
  at: LogPosition,
  collection: Address,
  parties: { from: Address; to: Address },
  amounts: Iterable<[bigint, bigint]>,
): TransferFact[] {
  if (!models.collections.has(collection)) return [];
  const from = lowerAddress(parties.from);
  const to = lowerAddress(parties.to);
  return [...amounts].map(([tokenId, amount]) => {
    const key = itemKey(collection, tokenId);
    let holders = models.balances.get(key);
    if (!holders) models.balances.set(key, (holders = new Map()));
    const change = (holder: Address, by: bigint) => {
      const had = holders.has(holder);
      const balance = (holders.get(holder) ?? 0n) + by;
      if (balance === 0n) holders.delete(holder);
      else holders.set(holder, balance);
      if (had !== (balance !== 0n) && holder !== models.facts.marketplace)
        countHolder(models, collection, holder, had ? -1 : 1);
    };
    if (from !== zeroAddress) change(from, -amount);
    if (to !== zeroAddress) change(to, amount);
    return recordActivity(models, { kind, ...at, collection, tokenId, from, to, amount });
  });
}

/**
 * Folds decoded logs (in chain order) into the models. Reducers read nothing but
 * the models, the log and its block's time, so replaying the same logs gives the same models.
 * What they folded in is added to `folded`, when given.
 */
export function applyLogs(
  models: ChainModels,
  logs: IndexedLog[],
  blockTimes: Map<bigint, number>,
  folded?: Folded,
): void {
  for (const log of logs) {
    const at: LogPosition = {
      blockNumber: Number(log.blockNumber),
      logIndex: log.logIndex,
      transactionHash: log.transactionHash,
      timestamp: blockTimes.get(log.blockNumber)!,
    };
    const fold = (reducers[log.eventName] as Reducer<IndexedEventName, Fold>)(
      models,
      log.args as ArgsOf<IndexedEventName>,
      at,
      lowerAddress(log.address),
    );
    if (!folded || !fold) continue;
    if (Array.isArray(fold)) folded.activity.push(...fold);
    else if ("kind" in fold) folded.activity.push(fold);
    else folded.collections.push(fold);
  }
}

export function advanceHead(models: ChainModels, head: Pick<Block, "number" | "timestamp">): void {
  models.head = { blockNumber: Number(head.number), timestamp: Number(head.timestamp) };
  models.version += 1;
}
