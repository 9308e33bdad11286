import type { Block } from "viem";
import type { ArgsOf, IndexedEventName, IndexedLog } from "./decode.ts";
import type { Activity, ChainModels, CollectionRecord, LogPosition } from "./models.ts";
import type { Folded } from "./observer.ts";
import { collectionCreated } from "./reducers/collection-created.ts";
import { itemCreated } from "./reducers/item-created.ts";
import { itemDescribed } from "./reducers/item-described.ts";
import { transferSingle } from "./reducers/transfer-single.ts";
import { transferBatch } from "./reducers/transfer-batch.ts";
import { itemAdded, itemDelisted, itemListed, itemPriceUpdated, itemRemoved, swapped } from "./reducers/marketplace.ts";
import { lowerAddress } from "../core/formats.ts";

/**
 * What a reducer folded in: a collection, item activity, or nothing the API shows (an item's creation, a log of no
 * known collection).
 */
type Fold = CollectionRecord | Activity | Activity[] | undefined | void;

type Reducer<Name extends IndexedEventName> = (models: ChainModels, args: ArgsOf<Name>, at: LogPosition) => Fold;

const reducers: { [Name in IndexedEventName]: Reducer<Name> } = {
  CollectionCreated: collectionCreated,
  ItemCreated: itemCreated,
  ItemDescribed: itemDescribed,
  TransferSingle: transferSingle,
  TransferBatch: transferBatch,
  ItemListed: itemListed,
  ItemDelisted: itemDelisted,
  ItemPriceUpdated: itemPriceUpdated,
  ItemAdded: itemAdded,
  ItemRemoved: itemRemoved,
  Swapped: swapped,
};

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
      address: lowerAddress(log.address),
      blockNumber: Number(log.blockNumber),
      logIndex: log.logIndex,
      transactionHash: log.transactionHash,
      timestamp: blockTimes.get(log.blockNumber)!,
    };
    const fold = (reducers[log.eventName] as Reducer<IndexedEventName>)(
      models,
      log.args as ArgsOf<IndexedEventName>,
      at,
    );
    if (folded && fold) addFold(folded, fold);
  }
}

function addFold(folded: Folded, fold: CollectionRecord | Activity | Activity[]): void {
  if (Array.isArray(fold)) folded.activity.push(...fold);
  else if ("kind" in fold) folded.activity.push(fold);
  else folded.collections.push(fold);
}

export function advanceHead(models: ChainModels, head: Pick<Block, "number" | "timestamp">): void {
  models.head = { blockNumber: Number(head.number), timestamp: Number(head.timestamp) };
  models.version += 1;
}
